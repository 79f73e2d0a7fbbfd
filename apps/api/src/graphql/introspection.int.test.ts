import { getIntrospectionQuery } from "graphql";
import { expect, test } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { startTestApp } from "../testing/app.js";
import { CreateApiKey } from "../testing/operations.js";

const codeOf = (result: { errors: { extensions?: Record<string, unknown> }[] }) => result.errors[0]?.extensions?.["code"];
const aliases = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${field}`).join(" ")} }`;


describeEachDatabase("introspection", (suite) => {
  test("needs a key outside local mode: anonymous callers are refused before anything runs, key holders read the whole schema", async () => {
    const api = await startTestApp(suite.db());
    try {
      for (const query of [
        getIntrospectionQuery(),
        `{ __type(name: "Query") { fields { name } } }`,
        `query { ...Schema } fragment Schema on Query { ... on Query { __schema { queryType { name } } } }`,
      ]) {
        const anonymous = await api.anonymous.execute(query);
        expect([anonymous.status, codeOf(anonymous), anonymous.data]).toEqual([401, "UNAUTHENTICATED", null]);
        expect(anonymous.errors[0]?.message).toMatch(/introspection needs an API key/);
      }
      // What stays public: serverInfo and naming a type.
      const open = await api.anonymous.execute(`{ __typename serverInfo { version } }`);
      expect([open.status, open.errors]).toEqual([200, []]);

      const { createApiKey } = await api.admin.request(CreateApiKey, { input: { name: "reader", scopes: ["read"] } });
      const reader = api.admin.withKey(createApiKey.key!);
      const full = await reader.execute(getIntrospectionQuery());
      expect([full.status, full.errors]).toEqual([200, []]);
      expect((full.data as { __schema: { types: unknown[] } }).__schema.types.length).toBeGreaterThan(100);

      // The report's attack, with a key: 1,000 aliases of __schema are refused by their cost before anything runs.
      const attack = await reader.execute(aliases(1_000, `__schema { types { name fields { name description } } }`));
      expect([attack.status, codeOf(attack), attack.data]).toEqual([400, "QUERY_TOO_COMPLEX", null]);
      expect(attack.errors[0]?.extensions?.["complexity"] as number).toBeGreaterThan(500_000);
    } finally {
      await api.close();
    }
  });

  test("counts against WEFT_MAX_RESPONSE_BYTES like every answer, over HTTP and WebSocket", async () => {
    const api = await startTestApp(suite.db(), { env: { WEFT_MAX_RESPONSE_BYTES: "100000" } });
    try {
      // The whole schema is about 180 KB of JSON: over a 100 KB budget.
      for (const query of [getIntrospectionQuery(), aliases(10, `__schema { types { name description } }`)]) {
        const result = await api.admin.execute(query);
        expect([result.status, codeOf(result), result.data], query.slice(0, 60)).toEqual([400, "RESPONSE_TOO_LARGE", null]);
        expect(result.errors).toHaveLength(1);
      }
      const ws = api.admin.ws();
      const overSocket = api.admin.subscribe(ws, getIntrospectionQuery());
      await overSocket.ended;
      await ws.dispose();
      expect(overSocket.errors.map((error) => error.extensions?.["code"])).toEqual(["RESPONSE_TOO_LARGE"]);
      // Within the budget, introspection answers as before.
      const small = await api.admin.execute(`{ __type(name: "Run") { name fields { name } } }`);
      expect([small.status, small.errors]).toEqual([200, []]);
    } finally {
      await api.close();
    }
  });
});
