import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Runs every `src/*.bench.ts` (each exports `run()`): the engine's own first, then the rest by name.
 * `pnpm bench -- <name>…` runs only the named ones (name = file name without `.bench.ts`).
 */
const FIRST = ["engine-overhead", "makespan"];

const directory = fileURLToPath(new URL(".", import.meta.url));
const names = readdirSync(directory)
  .filter((file) => file.endsWith(".bench.ts"))
  .map((file) => file.slice(0, -".bench.ts".length))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

function rank(name: string): number {
  const at = FIRST.indexOf(name);
  return at === -1 ? FIRST.length : at;
}

const wanted = process.argv.slice(2).filter((arg) => arg !== "--");
const unknown = wanted.filter((name) => !names.includes(name));
if (unknown.length > 0) throw new Error(`no such benchmark: ${unknown.join(", ")} (have: ${names.join(", ")})`);

for (const name of names) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const bench = (await import(`./${name}.bench.ts`)) as { run?: () => Promise<unknown> };
  if (typeof bench.run !== "function") throw new Error(`${name}.bench.ts exports no run()`);
  await bench.run();
}
