import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Runs every benchmark in turn; `pnpm bench -- <name>…` runs only the named ones. */
const BENCHES: Record<string, string> = {
  "engine-overhead": "./engine-overhead.bench.ts",
  makespan: "./makespan.bench.ts",
  "validate-graph": "./validate-graph.bench.ts",
  "vector-search": "./vector-search.bench.ts",
  ingest: "./ingest.bench.ts",
};

const wanted = process.argv.slice(2).filter((arg) => arg !== "--");
for (const [name, path] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  if (!existsSync(fileURLToPath(new URL(path, import.meta.url)))) {
    console.log(`\n${name}: not present, skipped`);
    continue;
  }
  const bench = (await import(path)) as { run?: () => Promise<unknown> };
  if (typeof bench.run !== "function") throw new Error(`${path} exports no run()`);
  await bench.run();
}
