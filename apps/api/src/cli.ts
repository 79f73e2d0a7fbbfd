#!/usr/bin/env node
import "reflect-metadata";
import { parseArgs } from "node:util";
import { createDefaultRegistry } from "@weft/engine";
import { createLlmProviders } from "./app/llm-providers.js";
import { databaseOptionsFromEnv, openDatabase } from "./db/db.js";
import { EnvError, loadEnv } from "./env.js";
import { createLogger } from "./logger.js";
import { ApiKeyService } from "./modules/api-key/index.js";
import { InProcessEventBus } from "./pubsub.js";

const USAGE = `weft-api — operator commands for the Weft API (configuration from the environment, see docs/api.md)

  weft-api create-key --name <name> --scopes <read,write,run,admin>
      Creates an API key and prints it once. Example: the first admin key:
      pnpm --filter @weft/api run create-key --name admin --scopes admin
  weft-api list-keys          Lists keys (prefix, scopes, state); never the keys themselves.
  weft-api revoke-key <id>    Revokes a key at once.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const env = loadEnv({ LOG_LEVEL: "warn" });
  // In embedded mode this also applies pending migrations, like the server does at start.
  const database = await openDatabase(databaseOptionsFromEnv(env));
  // Nobody listens on this process's bus: a running server notices a revocation made here when it
  // re-checks its open WebSockets' keys (WEFT_WS_KEY_RECHECK_SECONDS).
  const keys = new ApiKeyService(
    { env, db: database.prisma, registry: createDefaultRegistry(), llm: createLlmProviders(env), logger: createLogger(env) },
    new InProcessEventBus(),
  );
  try {
    switch (command) {
      case "create-key":
        return await createKey(keys, rest);
      case "list-keys":
        for (const key of await keys.list(true)) {
          const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active";
          console.log(`${key.id}  ${key.prefix}…  ${key.scopes.join(",").padEnd(20)}  ${state}  ${key.name}`);
        }
        return 0;
      case "revoke-key": {
        const outcome = await keys.revoke(rest[0] ?? "");
        if (!outcome.ok) return fail(outcome.errors.map((error) => error.message).join("\n"));
        console.log(`revoked ${outcome.value.id} (${outcome.value.prefix}…)`);
        return 0;
      }
      default:
        return fail(`unknown command "${command}"\n\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
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
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  },
);
