import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { LlmProvider, Workflow } from "@weft/engine";
import { pino, type Logger } from "pino";
import { createApp, type App } from "../app/create-app.js";
import type { Database } from "../db/db.js";
import { loadEnv, type EnvName } from "../env.js";
import { insertWorkflow, LOCKED_TRANSACTION_OPTIONS } from "../modules/workflow/index.js";
import { TestClient } from "./graphql-client.js";
import { RunEvents, RunWorkflow } from "./operations.js";

/** The secret key test apps seal webhook secrets with (the same across restarts of one test). */
export const TEST_SECRET_KEY = "weft-test-secret-key-0123456789abcdef";

export interface TestAppOptions {
  env?: Partial<Record<EnvName, string>>;
  providers?: readonly LlmProvider[];
  /** Collects log lines (parsed JSON) instead of discarding them. */
  captureLogs?: boolean;
}

export interface TestApp {
  app: App;
  /** A client holding the bootstrap admin key (WEFT_ADMIN_KEY); `anonymous` has none. */
  admin: TestClient;
  anonymous: TestClient;
  adminKey: string;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * The real API (createApp: express + Apollo + graphql-ws) on 127.0.0.1 and a free port, over the given
 * database, with authentication required and a fresh admin key. The shell's environment is not read.
 */
export async function startTestApp(database: Database, options: TestAppOptions = {}): Promise<TestApp> {
  const adminKey = options.env?.WEFT_ADMIN_KEY ?? `weft_test_${randomBytes(24).toString("base64url")}`;
  const env = loadEnv(
    { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", WEFT_SEED_DEMO: "false", WEFT_ADMIN_KEY: adminKey, WEFT_SECRET_KEY: TEST_SECRET_KEY, ...options.env },
    {},
  );
  const logs: Record<string, unknown>[] = [];
  const logger = options.captureLogs ? capturingLogger(logs) : pino({ level: "silent" });
  const app = await createApp(env, { database, logger, providers: options.providers });
  const admin = new TestClient(app.url, app.wsUrl, adminKey);
  return { app, admin, anonymous: admin.withKey(null), adminKey, logs, close: () => app.close() };
}

function capturingLogger(lines: Record<string, unknown>[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return pino({ level: "info" }, sink);
}

/** Stores a workflow directly (fixtures for run tests); edits themselves are tested through the API. */
export async function seedWorkflow(database: Database, workflow: Workflow): Promise<string> {
  // The import's own transaction options: a 2,000-node fixture on a busy machine outlasts Prisma's 5 s default.
  const row = await database.prisma.$transaction((tx) => insertWorkflow(tx, workflow, ""), LOCKED_TRANSACTION_OPTIONS);
  return row.id;
}

/** Starts a run of the workflow and follows its events over WebSocket to the terminal one; returns its id. */
export async function runToEnd(client: TestClient, workflowId: string): Promise<string> {
  const runId = (await client.request(RunWorkflow, { workflowId })).runWorkflow.run!.id;
  const ws = client.ws();
  try {
    await client.subscribe(ws, RunEvents, { runId, afterSeq: 0 }).ended;
  } finally {
    await ws.dispose();
  }
  return runId;
}
