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
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PGliteAdapterFactory } from "./pglite-adapter.js";
import { createSchemaEngine, type SchemaEngine } from "./schema-engine.js";

interface Request {
  id: number;
  method: string;
  params?: Record<string, unknown>;
}

function parseArgs(argv: string[]): { datamodels: string[]; url: string | undefined } {
  const datamodels: string[] = [];
  let url: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const value = argv[i + 1];
    if (argv[i] === "--datamodels" && value) datamodels.push(value);
    if (argv[i] === "--datasource" && value) url = (JSON.parse(value) as { url?: string }).url;
  }
  return { datamodels, url };
}

function adapterFor(url: string | undefined): SqlMigrationAwareDriverAdapterFactory {
  if (url && /^postgres(ql)?:\/\//.test(url)) return new PrismaPg({ connectionString: url });
  if (url) throw new Error(`this schema engine stand-in handles postgresql:// URLs only, got "${url.split(":")[0]}:"`);
  return new PGliteAdapterFactory(new PGlite());
}

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
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

async function main(): Promise<void> {
  const { datamodels, url } = parseArgs(process.argv.slice(2));
  const files = await Promise.all(datamodels.map(async (file) => [file, await readFile(file, "utf8")] as [string, string]));
  const engine = await createSchemaEngine(adapterFor(url), {
    datamodels: files,
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
  process.stderr.write(`${JSON.stringify({ level: "ERROR", fields: { message: String(error) } })}\n`);
  process.exit(1);
});
