/**
 * Speaks the schema-engine binary's protocol on top of the WebAssembly engine, so the Prisma CLI
 * (`prisma migrate deploy|status|diff|resolve`) works without downloading the binary:
 *
 *   PRISMA_SCHEMA_ENGINE_BINARY=scripts/prisma-schema-engine prisma migrate status
 *
 * The CLI starts it as `BINARY --datamodels FILE… --datasource JSON` and sends newline-delimited
 * JSON-RPC 2.0 requests on stdin; answers go to stdout, logs to stderr. Each request is forwarded to
 * the WebAssembly engine method of the same name. A `postgres(ql)://` datasource URL is reached with
 * `pg`; without one (e.g. `migrate diff` between files) a throw-away in-memory PGlite serves as the
 * engine's database and shadow database.
 */
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PgMigrationAdapterFactory } from "./pg-adapter.js";
import { PGliteAdapterFactory } from "./pglite-adapter.js";
import { createSchemaEngine, lastSchemaEnginePanic, type SchemaEngine } from "./schema-engine.js";

interface Request {
  id: number;
  method: string;
  params?: Record<string, unknown>;
}

interface Args {
  datamodels: string[];
  url: string | undefined;
  /** `cli <command>`: the binary's one-shot mode, used by the CLI before migrating. */
  cliCommand: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const datamodels: string[] = [];
  let url: string | undefined;
  let cliCommand: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const value = argv[i + 1];
    if (argv[i] === "--datamodels" && value) datamodels.push(value);
    if (argv[i] === "--datasource" && value) url = (JSON.parse(value) as { url?: string }).url;
    if (argv[i] === "cli") cliCommand = value;
  }
  return { datamodels, url, cliCommand };
}

function adapterFor(url: string | undefined): SqlMigrationAwareDriverAdapterFactory {
  if (url && /^postgres(ql)?:\/\//.test(url)) return new PgMigrationAdapterFactory(url);
  if (url) throw new Error(`this schema engine stand-in handles postgresql:// URLs only, got "${url.split(":")[0]}:"`);
  return new PGliteAdapterFactory(new PGlite());
}

// stdout carries the protocol only: anything else that writes there (library debug output, console
// calls) is sent to stderr, where the CLI expects logs.
const protocolOut = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

function send(message: unknown): void {
  protocolOut(`${JSON.stringify(message)}\n`);
}

let nextPrintId = 1_000_000;

async function call(engine: SchemaEngine, request: Request): Promise<unknown> {
  const method = request.method === "getDatabaseVersion" ? "version" : request.method;
  const target = (engine as unknown as Record<string, unknown>)[method];
  if (typeof target !== "function") throw new Error(`the WebAssembly schema engine has no "${request.method}"`);
  const result: unknown = await (target as (params: unknown) => Promise<unknown>).call(engine, request.params ?? {});
  if (request.method === "diff" && result && typeof result === "object" && "stdout" in result) {
    // The binary prints diffs through a `print` request to the CLI rather than in its answer.
    const { stdout, ...rest } = result as { stdout: string };
    if (stdout) send({ jsonrpc: "2.0", id: nextPrintId++, method: "print", params: { content: stdout } });
    return rest;
  }
  return result;
}

/** The CLI reads a failure from the binary's stderr as a JSON log line carrying a Prisma error code. */
function failCliCommand(errorCode: string, message: string): never {
  const line = { level: "ERROR", target: "schema_engine::logger", fields: { error_code: errorCode, message } };
  process.stderr.write(`schema engine stand-in\n${JSON.stringify(line)}\n`);
  process.exit(1);
}

async function runCliCommand(command: string, url: string | undefined): Promise<void> {
  if (!url || !/^postgres(ql)?:\/\//.test(url)) failCliCommand("P1012", "a postgresql:// datasource URL is needed");
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1)) || "postgres";
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: command === "can-connect-to-database" ? url : admin.toString() });
  try {
    await client.connect();
    if (command === "create-database") await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
    else if (command === "drop-database") await client.query(`DROP DATABASE "${database.replaceAll('"', '""')}"`);
    else if (command !== "can-connect-to-database") failCliCommand("P1012", `unknown command "cli ${command}"`);
  } catch (error) {
    const code = (error as { code?: string }).code === "3D000" ? "P1003" : "P1001";
    failCliCommand(code, `${(error as Error).message} (${target.host}/${database})`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const { datamodels, url, cliCommand } = parseArgs(process.argv.slice(2));
  if (cliCommand !== undefined) return runCliCommand(cliCommand, url);
  const files = await Promise.all(datamodels.map(async (file) => [file, await readFile(file, "utf8")] as [string, string]));
  const engine = await createSchemaEngine(adapterFor(url), {
    // An empty list makes the engine panic; no schema at all is what it expects.
    datamodels: files.length > 0 ? files : undefined,
    onLog: (line) => process.stderr.write(`${line}\n`),
  });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const message = JSON.parse(line) as Request & { result?: unknown };
    if (message.method === undefined) continue; // the CLI's answer to one of our `print` requests
    try {
      send({ jsonrpc: "2.0", id: message.id, result: (await call(engine, message)) ?? null });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      send({ jsonrpc: "2.0", id: message.id, error: { code: 4466, message: text, data: { is_panic: false, message: text, meta: null } } });
    }
  }
  engine.free();
}

main().catch((error: unknown) => {
  const message = [lastSchemaEnginePanic(), String(error)].filter(Boolean).join(": ");
  process.stderr.write(`${JSON.stringify({ level: "ERROR", fields: { message } })}\n`);
  process.exit(1);
});
