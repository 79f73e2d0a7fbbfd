import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { startTestApp, type TestApp } from "./app.js";
import { openTestDatabase, type TestDatabase } from "./database.js";

const run = promisify(execFile);
/** Debian's python3 with its python3-websockets package (scripts/ensure-test-services.sh installs both). */
const PYTHON = process.env["WEFT_TEST_PYTHON"] ?? "/usr/bin/python3";

/**
 * A third-party client: a Python script of testing/clients/ written only from the schema and the
 * graphql-transport-ws protocol, run against a real API on the embedded database. Call inside a describe:
 * the API starts before its tests and stops after them; the returned function runs the script and parses
 * the JSON report it prints.
 */
export function pythonClientOfApi<Report>(script: string): () => Promise<Report> {
  const client = fileURLToPath(new URL(`./clients/${script}`, import.meta.url));
  let database: TestDatabase | undefined;
  let api: TestApp | undefined;
  beforeAll(async () => {
    database = await openTestDatabase("embedded");
    api = await startTestApp(database);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });
  return async () => {
    const { stdout } = await run(PYTHON, [client, api!.app.url, api!.app.wsUrl, api!.adminKey], { timeout: 120_000 });
    return JSON.parse(stdout) as Report;
  };
}
