import pino from "pino";
import { expect, test } from "vitest";
import { createBuiltInRegistry } from "@weft/engine";
import { loadEnv } from "../../env.js";
import { InProcessEventBus } from "../../pubsub.js";
import { describeEachDatabase } from "../../testing/database.js";
import { ApiKeyService } from "./api-key.service.js";

describeEachDatabase("the operator's key stored at start-up", (suite) => {
  function service(): ApiKeyService {
    const deps = { env: loadEnv({}), db: suite.db().prisma, registry: createBuiltInRegistry(), llm: new Map(), logger: pino({ level: "silent" }) };
    return new ApiKeyService(deps, new InProcessEventBus());
  }

  test("several processes starting at once with the same key all start: one stores it, the others find it", async () => {
    const keys = Array.from({ length: 4 }, () => service());
    const added = await Promise.all(keys.map((keys) => keys.ensureKey("weft_operator_key_for_tests_0123456789", "operator", ["admin"])));
    expect(added.filter(Boolean)).toHaveLength(1);
    const stored = await suite.db().prisma.apiKey.findMany({ select: { name: true, scopes: true } });
    expect(stored).toEqual([{ name: "operator", scopes: ["admin"] }]);
    expect(await keys[0]!.ensureKey("weft_operator_key_for_tests_0123456789", "operator", ["admin"])).toBe(false);
  });
});

describeEachDatabase("the callers behind presented keys", (suite) => {
  function service(cacheMs: number, bus = new InProcessEventBus()): ApiKeyService {
    const deps = { env: loadEnv({ WEFT_AUTH_CACHE_MS: String(cacheMs) }), db: suite.db().prisma, registry: createBuiltInRegistry(), llm: new Map(), logger: pino({ level: "silent" }) };
    return new ApiKeyService(deps, bus);
  }

  test("a valid key's caller is remembered: while the entry lives the stored row is not read again", async () => {
    const keys = service(60_000);
    const created = await keys.create({ name: "app", scopes: ["read"] });
    if (!created.ok) throw new Error("could not create a key");
    const caller = await keys.authenticate(created.value.key);
    expect(caller).toMatchObject({ keyId: created.value.apiKey.id, authenticated: true });
    // Gone from the database behind the service's back (as another process's revoke-key would do): still remembered.
    await suite.db().prisma.apiKey.update({ where: { id: created.value.apiKey.id }, data: { revokedAt: new Date() } });
    expect(await keys.authenticate(created.value.key)).toEqual(caller);
    expect(await service(0).authenticate(created.value.key)).toBeNull();
  });

  test("a revocation through the service, or announced by another process, is refused at once", async () => {
    const keys = service(60_000);
    const first = await keys.create({ name: "first", scopes: ["read"] });
    const second = await keys.create({ name: "second", scopes: ["read"] });
    if (!first.ok || !second.ok) throw new Error("could not create the keys");
    await keys.authenticate(first.value.key);
    await keys.authenticate(second.value.key);
    expect((await keys.revoke(first.value.apiKey.id)).ok).toBe(true);
    expect(await keys.authenticate(first.value.key)).toBeNull();

    await suite.db().prisma.apiKey.update({ where: { id: second.value.apiKey.id }, data: { revokedAt: new Date() } });
    keys.forget(second.value.apiKey.id);
    expect(await keys.authenticate(second.value.key)).toBeNull();
  });

  test("a key revoked where nobody announces it is refused once its entry expires", async () => {
    const keys = service(1);
    const created = await keys.create({ name: "short", scopes: ["read"] });
    if (!created.ok) throw new Error("could not create a key");
    expect(await keys.authenticate(created.value.key)).not.toBeNull();
    await suite.db().prisma.apiKey.update({ where: { id: created.value.apiKey.id }, data: { revokedAt: new Date() } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await keys.authenticate(created.value.key)).toBeNull();
  });
});
