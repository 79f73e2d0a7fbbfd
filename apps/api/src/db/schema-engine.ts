import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";

export type { SchemaEngine };

// The Node typings in use do not declare the WebAssembly global; this is the one call needed.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

let loading: Promise<void> | undefined;

/**
 * The engine reports a Rust panic's message through this global before throwing; without it the
 * panic turns into an unrelated TypeError. The message is attached to the error that follows.
 */
const panicRegistry = { message: undefined as string | undefined, set_message(message: string) { this.message = message; } };
(globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY ??= panicRegistry;

/** The last panic message the engine reported, if any (for error reports). */
export function lastSchemaEnginePanic(): string | undefined {
  return panicRegistry.message;
}

/**
 * Instantiates Prisma's schema engine compiled to WebAssembly, once per process.
 *
 * The package's ESM entry imports the `.wasm` file directly, which Node refuses, so the module is
 * instantiated by hand with the package's own JS glue as its import object. This is what lets
 * migrations run without the schema-engine binary that the Prisma CLI would download.
 */
export function loadSchemaEngineWasm(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await readFile(gluePath.replace(/schema_engine_bg\.js$/, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  })();
  return loading;
}

export interface SchemaEngineOptions {
  /** Prisma schema files as [path, content] pairs; the engine needs them for diff-free commands too. */
  datamodels?: [string, string][];
  /** Receives the engine's log lines (JSON strings); silent by default. */
  onLog?: (line: string) => void;
}

/** Starts a schema engine talking to the database behind the given driver adapter factory. */
export async function createSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  options: SchemaEngineOptions = {},
): Promise<SchemaEngine> {
  await loadSchemaEngineWasm();
  const onLog = options.onLog ?? (() => undefined);
  return bg.SchemaEngine.new(
    { datamodels: options.datamodels },
    (line: string) => onLog(line),
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}
