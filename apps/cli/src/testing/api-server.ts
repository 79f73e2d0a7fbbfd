import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real Weft API in its own process (apps/api/src/main.ts under tsx, as `./weft dev` runs it) on a
 * free port, over an embedded database in a temporary folder, with an admin key: what `weft eval` talks
 * to. Started by path, not imported: the CLI and the API share only packages.
 */
const API_DIR = resolve(fileURLToPath(import.meta.url), "../../../../api");
const START_TIMEOUT_MS = 120_000;

export interface ApiServer {
  /** The GraphQL endpoint. */
  url: string;
  adminKey: string;
  /** GraphQL over HTTP with the admin key; throws on any error. */
  request<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export async function startApiServer(): Promise<ApiServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "weft-eval-api-"));
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  const child = spawn(process.execPath, ["--conditions=weft-source", "--import", "tsx", "src/main.ts"], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", WEFT_DATA_DIR: dataDir, WEFT_ADMIN_KEY: adminKey, WEFT_SEED_DEMO: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await listeningUrl(child.stdout, child.stderr, exited);
    return { url, adminKey, request: (query, variables) => graphql(url, adminKey, query, variables), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function listeningUrl(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream, exited: Promise<void>): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the API did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:[^"]+)"[^\n]*listening/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1] as string);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the API exited before listening:\n${output}`));
    });
  });
}

async function graphql<T>(url: string, key: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors?.length || !body.data) throw new Error(`GraphQL error: ${JSON.stringify(body.errors)}`);
  return body.data;
}
