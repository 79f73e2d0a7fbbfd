import { describe, expect, it } from "vitest";
import { mistralErrorMessage } from "./mistral-error.mapper.js";

describe("mistralErrorMessage", () => {
  it("reads Mistral's error shapes", () => {
    expect(mistralErrorMessage('{"message":"Unauthorized"}')).toBe("Unauthorized");
    expect(mistralErrorMessage('{"object":"error","message":{"detail":[{"loc":["body","model"],"msg":"Field required"}]}}')).toBe("body.model: Field required");
    expect(mistralErrorMessage('{"detail":"Not Found"}')).toBe("Not Found");
    expect(mistralErrorMessage("upstream connect error")).toBe("upstream connect error");
    expect(mistralErrorMessage("")).toBeUndefined();
  });
});
