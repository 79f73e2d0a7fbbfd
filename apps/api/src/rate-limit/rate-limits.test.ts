import { expect, test } from "vitest";
import { ANONYMOUS, AUTH_DISABLED } from "../auth/auth-info.js";
import { loadEnv } from "../env.js";
import { CallerBudget } from "./caller-budget.js";
import { MemoryConnectionCap } from "./connection-cap.js";
import { callerOf, retryAfterSeconds } from "./rate-limits.js";

test("a budget allows its points per caller, then refuses with the time until the window resets", async () => {
  const budget = new CallerBudget("test", 3);
  const first = await Promise.all([1, 2, 3].map(() => budget.take("key:a")));
  expect(first.every((decision) => decision.allowed)).toBe(true);
  const refused = await budget.take("key:a");
  expect(refused).toMatchObject({ allowed: false, limit: 3 });
  if (refused.allowed) return;
  expect(refused.retryAfterMs).toBeGreaterThan(0);
  expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
  expect((await budget.take("key:b")).allowed).toBe(true);
});

test("a budget of 0 never refuses", async () => {
  const budget = new CallerBudget("off", 0);
  const decisions = await Promise.all(Array.from({ length: 1000 }, () => budget.take("ip:127.0.0.1")));
  expect(decisions.every((decision) => decision.allowed)).toBe(true);
});

test("the connection cap counts open connections per caller and frees a place on release; 0 is no cap", async () => {
  const cap = new MemoryConnectionCap(2);
  const places = [await cap.tryOpen("a"), await cap.tryOpen("a"), await cap.tryOpen("a"), await cap.tryOpen("b")];
  expect(places.map((place) => place !== null)).toEqual([true, true, false, true]);
  cap.release("a", places[0]!);
  expect(cap.openFor("a")).toBe(1);
  expect(await cap.tryOpen("a")).not.toBeNull();
  const none = new MemoryConnectionCap(0);
  expect((await Promise.all(Array.from({ length: 100 }, () => none.tryOpen("a")))).every((place) => place !== null)).toBe(true);
});

test("callers are API keys when there is one, else client addresses (also with authentication disabled)", () => {
  const keyed = { keyId: "k1", scopes: new Set(["read" as const]), authenticated: true };
  expect(callerOf(keyed, "10.0.0.1")).toBe("key:k1");
  expect(callerOf(ANONYMOUS, "10.0.0.1")).toBe("ip:10.0.0.1");
  expect(callerOf(AUTH_DISABLED, "::1")).toBe("ip:::1");
});

test("Retry-After is whole seconds, at least 1", () => {
  expect([retryAfterSeconds(1), retryAfterSeconds(1000), retryAfterSeconds(1001), retryAfterSeconds(59_999)]).toEqual([1, 1, 2, 60]);
});

test("the rate limits default to 600 requests and 60 runs a minute and 20 connections; 0 is accepted, negatives are not", () => {
  const defaults = loadEnv({}, {});
  expect([defaults.WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE, defaults.WEFT_RATE_LIMIT_RUNS_PER_MINUTE, defaults.WEFT_MAX_WS_CONNECTIONS_PER_CALLER]).toEqual([600, 60, 20]);
  const off = loadEnv({ WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0", WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0", WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "0" }, {});
  expect([off.WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE, off.WEFT_RATE_LIMIT_RUNS_PER_MINUTE, off.WEFT_MAX_WS_CONNECTIONS_PER_CALLER]).toEqual([0, 0, 0]);
  expect(() => loadEnv({ WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "-1" }, {})).toThrow(/WEFT_RATE_LIMIT_RUNS_PER_MINUTE/);
});
