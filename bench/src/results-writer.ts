import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const benchRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const docsFile = resolve(benchRoot, "..", "docs", "benchmarks.md");

/** Writes `bench/results/<name>.json`. */
export function writeResult(name: string, data: unknown): string {
  const file = resolve(benchRoot, "results", `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

/**
 * Replaces the text between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->` in docs/benchmarks.md,
 * so each benchmark rewrites only its own section; a missing section is appended.
 */
export function writeDocSection(name: string, markdown: string): void {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const current = existsSync(docsFile) ? readFileSync(docsFile, "utf8") : "# Benchmarks\n";
  const block = `${open}\n${markdown.trim()}\n${close}`;
  const start = current.indexOf(open);
  const end = current.indexOf(close);
  const next =
    start !== -1 && end > start
      ? current.slice(0, start) + block + current.slice(end + close.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(docsFile, next);
}
