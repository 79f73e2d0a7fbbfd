#!/usr/bin/env node
import "reflect-metadata";
import { parseArgs } from "node:util";
import { createBuiltInRegistry } from "@weft/engine";
import { createLlmProviders } from "./app/llm-providers.js";
import { DatabaseError } from "./db/database-error.js";
import { databaseOptionsFromEnv, openDatabase, type Database } from "./db/db.js";
import { EnvError, loadEnv, type Env } from "./env.js";
import { pino } from "pino";
import { createLogger } from "./logger.js";
import { ApiKeyService } from "./modules/api-key/index.js";
import { InProcessEventBus } from "./pubsub.js";

const USAGE = `weft-api — operator commands for the Weft API (configuration from the environment, see docs/api.md)

  weft-api migrate            Applies pending migrations to DATABASE_URL (or the embedded database).
  weft-api migrate-status     Shows the migration history; exit 1 when not up to date.
  weft-api create-key --name <name> --scopes <read,write,run,admin>
      Creates an API key and prints it once, alone on stdout. Example: the first admin key:
      node apps/api/dist/cli.js create-key --name admin --scopes admin
  weft-api list-keys          Lists keys (prefix, scopes, state); never the keys themselves.
  weft-api revoke-key <id>    Revokes a key at once.

Run it as \`node apps/api/dist/cli.js …\` (after a build; no development tools needed), or through pnpm
with --silent (\`pnpm --silent --filter @weft/api run create-key …\`) so pnpm adds nothing to stdout.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const env = loadEnv({ LOG_LEVEL: "warn" });
  switch (command) {
    case "migrate":
      return withDatabase(env, { migrate: false, requireMigrated: false }, async (db) => {
        const applied = await db.migrate();
        console.log(applied.length ? `applied: ${applied.join(", ")}` : "the database is up to date");
        return 0;
      });
    case "migrate-status":
      return withDatabase(env, { migrate: false, requireMigrated: false }, async (db) => {
        const status = await db.migrationStatus();
        console.log(JSON.stringify(status, null, 2));
        return status.upToDate ? 0 : 1;
      });
    case "create-key":
    case "list-keys":
    case "revoke-key":
      // In embedded mode this also applies pending migrations, like the server does at start.
      return withDatabase(env, {}, (db) => keyCommand(command, rest, env, db));
    default:
      return fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

async function withDatabase(
  env: Env,
  overrides: { migrate?: boolean; requireMigrated?: boolean },
  use: (db: Database) => Promise<number>,
): Promise<number> {
  const database = await openDatabase({ ...databaseOptionsFromEnv(env), ...overrides });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

async function keyCommand(command: string, args: string[], env: Env, database: Database): Promise<number> {
  // Nobody listens on this process's bus: a running server notices a revocation made here when it
  // re-checks its open WebSockets' keys (WEFT_WS_KEY_RECHECK_SECONDS).
  const keys = new ApiKeyService(
    // Logs go to stderr: stdout carries only the command's output (the key, for create-key).
    { env, db: database.prisma, registry: createBuiltInRegistry(), llm: createLlmProviders(env), logger: createLogger(env, pino.destination(2)) },
    new InProcessEventBus(),
  );
  if (command === "create-key") return createKey(keys, args);
  if (command === "list-keys") {
    for (const key of await keys.list(true)) {
      const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active";
      console.log(`${key.id}  ${key.prefix}…  ${key.scopes.join(",").padEnd(20)}  ${state}  ${key.name}`);
    }
    return 0;
  }
  const outcome = await keys.revoke(args[0] ?? "");
  if (!outcome.ok) return fail(outcome.errors.map((error) => error.message).join("\n"));
  console.log(`revoked ${outcome.value.id} (${outcome.value.prefix}…)`);
  return 0;
}

async function createKey(keys: ApiKeyService, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { name: { type: "string" }, scopes: { type: "string" } } });
  const scopes = (values.scopes ?? "").split(",").map((scope) => scope.trim()).filter(Boolean);
  const outcome = await keys.create({ name: values.name ?? "", scopes });
  if (!outcome.ok) return fail(outcome.errors.map((error) => error.message).join("\n"));
  console.error(`Created key ${outcome.value.apiKey.id} "${outcome.value.apiKey.name}" with scopes ${scopes.join(", ")}.`);
  console.error("This is the only time it is shown; store it now:");
  console.log(outcome.value.key);
  return 0;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Expected failures are one line for the operator; anything else keeps its stack.
    if (error instanceof EnvError) console.error(error.message);
    else if (error instanceof DatabaseError) console.error(`weft-api: ${error.code}: ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
