import { stringifyWorkflow } from "@weft/engine";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { describeEachDatabase, openTestDatabase, type TestDatabase } from "../testing/database.js";
import { startTestApp, type TestApp } from "../testing/app.js";
import { arrows } from "../testing/workflows.js";

/**
 * `[[[…"leaf"…]]]`, `levels` lists deep, as text: JSON.stringify (and so every GraphQL client) recurses
 * and cannot write such a value, so requests carrying it are written by hand.
 */
const nested = (levels: number): string => `${"[".repeat(levels)}"leaf"${"]".repeat(levels)}`;

const IMPORT = `mutation ($d: JSON!) { importWorkflow(document: $d) { workflow { id } errors { code message path } } }`;
const codeOf = (errors: readonly { extensions?: Record<string, unknown> }[]) => errors[0]?.extensions?.["code"];
type Errors = { message: string; extensions?: Record<string, unknown> }[];

/** A request whose variables are given as JSON text. */
async function postRaw(api: TestApp, query: string, variablesJson: string) {
  const { status, json, headers } = await api.admin.post(`{"query": ${JSON.stringify(query)}, "variables": ${variablesJson}}`);
  const body = json as { data?: unknown; errors?: Errors };
  return { status, data: body.data ?? null, errors: body.errors ?? [], headers };
}

/** One operation over graphql-ws, its subscribe message written by hand: every message the server sends about it. */
async function overSocket(api: TestApp, query: string, variablesJson: string): Promise<{ type: string; payload?: unknown }[]> {
  const socket = new WebSocket(api.app.wsUrl, "graphql-transport-ws");
  const received: { type: string; id?: string; payload?: unknown }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("close", () => resolve());
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${api.adminKey}` } })));
    socket.on("message", (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: string; payload?: unknown };
      if (message.type === "connection_ack") {
        socket.send(`{"id": "1", "type": "subscribe", "payload": {"query": ${JSON.stringify(query)}, "variables": ${variablesJson}}}`);
        return;
      }
      received.push(message);
      if (message.type === "complete" || message.type === "error") socket.close();
    });
  });
  return received.map(({ type, payload }) => ({ type, payload }));
}

describeEachDatabase("JSON arguments nested past WEFT_MAX_VALUE_DEPTH", (suite) => {
  test("importWorkflow with a value nested 10,000 deep answers VALUE_TOO_DEEP as data, stores nothing, and the server goes on", async () => {
    const api = await startTestApp(suite.db());
    try {
      const document = stringifyWorkflow(arrows(["in->g1->out"], { nodes: { g1: { params: { deep: "DEEP" } } } })).replace('"DEEP"', nested(10_000));
      for (const value of [document, nested(10_000)]) {
        const result = await postRaw(api, IMPORT, `{"d": ${value}}`);
        expect([result.status, result.errors]).toEqual([200, []]);
        expect(result.data).toEqual({
          importWorkflow: { workflow: null, errors: [{ code: "VALUE_TOO_DEEP", message: "document is nested deeper than 64 levels (WEFT_MAX_VALUE_DEPTH)", path: ["document"] }] },
        });
      }

      // As JSON text, the document's parser refuses the params by its own depth limit.
      const asText = await postRaw(api, IMPORT, `{"d": ${JSON.stringify(document)}}`);
      expect((asText.data as { importWorkflow: { errors: { code: string }[] } }).importWorkflow.errors.map((error) => error.code)).toEqual(["DOCUMENT_INVALID"]);

      // Written into the query text instead of a variable: refused before graphql-js's parser recurses into it.
      const literal = await api.admin.execute(`mutation { importWorkflow(document: ${nested(10_000)}) { errors { code } } }`);
      expect([literal.status, codeOf(literal.errors), literal.errors[0]?.extensions?.["requestId"]]).toEqual([400, "VALUE_TOO_DEEP", literal.headers.get("x-request-id")]);

      // Over the WebSocket, the same refusals: as data for the variable, as the operation's error for the literal.
      expect(await overSocket(api, IMPORT, `{"d": ${nested(10_000)}}`)).toEqual([
        { type: "next", payload: { data: { importWorkflow: { workflow: null, errors: [expect.objectContaining({ code: "VALUE_TOO_DEEP", path: ["document"] })] } } } },
        { type: "complete", payload: undefined },
      ]);
      const literalOverSocket = await overSocket(api, `mutation { importWorkflow(document: ${nested(10_000)}) { errors { code } } }`, "{}");
      expect(literalOverSocket).toEqual([{ type: "error", payload: [expect.objectContaining({ extensions: expect.objectContaining({ code: "VALUE_TOO_DEEP" }) })] }]);

      expect(await suite.db().prisma.workflow.count()).toBe(0);
      const healthy = await fetch(api.app.url.replace("/graphql", "/healthz"));
      expect(healthy.status).toBe(200);
      const normal = await api.admin.execute(IMPORT, { d: stringifyWorkflow(arrows(["in->g1->out"])) });
      expect((normal.data as { importWorkflow: { errors: unknown[] } }).importWorkflow.errors).toEqual([]);
      expect(await suite.db().prisma.workflow.count()).toBe(1);
    } finally {
      await api.close();
    }
  });
});

describe("GraphQL documents nested past what the parser can take", () => {
  let api: TestApp;
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase("embedded");
    api = await startTestApp(db, { env: { WEFT_MAX_VALUE_DEPTH: "8" } });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.close();
  });

  test("selection sets nested 10,000 deep are refused with QUERY_TOO_DEEP before parsing", async () => {
    const query = `{ ${"workflows { edges { node { ".repeat(3_334)}id${" } } }".repeat(3_334)} }`;
    const result = await api.admin.execute(query);
    expect([result.status, codeOf(result.errors)]).toEqual([400, "QUERY_TOO_DEEP"]);
  });

  test("WEFT_MAX_VALUE_DEPTH sets the limit: 8 levels pass the argument check, 9 are refused", async () => {
    const at = await postRaw(api, IMPORT, `{"d": ${nested(8)}}`);
    expect((at.data as { importWorkflow: { errors: { code: string }[] } }).importWorkflow.errors.map((error) => error.code)).toEqual(["DOCUMENT_INVALID"]);
    const over = await postRaw(api, IMPORT, `{"d": ${nested(9)}}`);
    expect((over.data as { importWorkflow: { errors: { code: string; message: string }[] } }).importWorkflow.errors).toEqual([
      { code: "VALUE_TOO_DEEP", message: "document is nested deeper than 8 levels (WEFT_MAX_VALUE_DEPTH)", path: ["document"] },
    ]);
    const literal = await api.admin.execute(`mutation { importWorkflow(document: ${nested(9)}) { errors { code } } }`);
    expect([literal.status, codeOf(literal.errors)]).toEqual([400, "VALUE_TOO_DEEP"]);
  });
});
