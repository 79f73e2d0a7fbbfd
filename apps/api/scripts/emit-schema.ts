/** Writes apps/api/schema.graphql from the resolvers: `pnpm --filter @weft/api run schema:emit`. */
import "reflect-metadata";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildWeftSchema } from "../src/graphql/schema.js";
import { schemaSdl } from "../src/graphql/schema-sdl.js";

const target = fileURLToPath(new URL("../schema.graphql", import.meta.url));
await writeFile(target, schemaSdl(await buildWeftSchema()));
console.log(`wrote ${target}`);
