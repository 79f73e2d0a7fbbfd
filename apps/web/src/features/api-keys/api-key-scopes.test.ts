import { describe, expect, it } from "vitest";
import { toggleScope } from "./api-key-scopes";

describe("API key scope selection", () => {
  it("adds and removes scopes in a stable order", () => {
    expect(toggleScope([], "run")).toEqual(["run"]);
    expect(toggleScope(["run"], "read")).toEqual(["read", "run"]);
    expect(toggleScope(["read", "run"], "run")).toEqual(["read"]);
  });

  it("makes admin exclusive because it implies every other scope", () => {
    expect(toggleScope(["read", "write"], "admin")).toEqual(["admin"]);
    expect(toggleScope(["admin"], "read")).toEqual(["read"]);
  });
});
