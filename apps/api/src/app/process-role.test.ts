import { describe, expect, test } from "vitest";
import { EnvError } from "../env.js";
import { checkRole, roleFromArgs } from "./process-role.js";

describe("process roles", () => {
  test("the role comes from --role or --role=, and is all when absent", () => {
    expect(roleFromArgs([])).toBe("all");
    expect(roleFromArgs(["--role", "worker"])).toBe("worker");
    expect(roleFromArgs(["--role=api"])).toBe("api");
  });

  test("an unknown or missing role value is refused as a configuration error", () => {
    expect(() => roleFromArgs(["--role", "cron"])).toThrow(EnvError);
    expect(() => roleFromArgs(["--role"])).toThrow(/expected api, worker or all/);
  });

  test("separate roles need Redis; the single process does not", () => {
    expect(() => checkRole("all", {})).not.toThrow();
    expect(() => checkRole("worker", {})).toThrow(/--role worker: needs REDIS_URL/);
    expect(() => checkRole("api", { REDIS_URL: "redis://cache:6379" })).not.toThrow();
  });
});
