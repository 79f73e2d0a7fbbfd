import pino from "pino";
import { expect, test } from "vitest";
import { createDefaultRegistry } from "@weft/engine";
import { loadEnv } from "../../env.js";
import { InProcessEventBus } from "../../pubsub.js";
import { describeEachDatabase } from "../../testing/database.js";
import { ApiKeyService } from "./api-key.service.js";

describeEachDatabase("the operator's key stored at start-up", (suite) => {
  function service(): ApiKeyService {
    const deps = { env: loadEnv({}), db: suite.db().prisma, registry: createDefaultRegistry(), llm: new Map(), logger: pino({ level: "silent" }) };
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
