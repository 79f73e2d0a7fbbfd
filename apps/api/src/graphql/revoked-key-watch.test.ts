import pino from "pino";
import { expect, test, vi } from "vitest";
import { ALL_KEYS, InProcessEventBus } from "../pubsub.js";
import { watchRevokedKeys } from "./revoked-key-watch.js";

test("a revocation announced on the bus makes this process forget the key's remembered caller", async () => {
  const bus = new InProcessEventBus();
  const apiKeys = { revokedAmong: vi.fn(async () => []), forget: vi.fn() };
  const watch = await watchRevokedKeys({ bus, apiKeys, recheckMs: 60_000, logger: pino({ level: "silent" }) });
  try {
    await bus.publish("apiKeyRevoked", ALL_KEYS, { keyId: "key-1", at: new Date().toISOString() });
    expect(apiKeys.forget).toHaveBeenCalledWith("key-1");
  } finally {
    await watch.stop();
  }
});
