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
 * so each benchmark rewrites only its own section; a missing section is appended. A hand-written
 * `<!-- note -->…<!-- /note -->` block inside the section (e.g. figures before and after a change) is kept.
 */
export function writeDocSection(name: string, markdown: string): void {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const current = existsSync(docsFile) ? readFileSync(docsFile, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(open);
  const end = current.indexOf(close);
  const note = start !== -1 && end > start ? keptNote(current.slice(start, end)) : "";
  const block = `${open}\n${markdown.trim()}\n${note}${close}`;
  const next =
    start !== -1 && end > start
      ? current.slice(0, start) + block + current.slice(end + close.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(docsFile, next);
}

function keptNote(section: string): string {
  const start = section.indexOf("<!-- note -->");
  const end = section.indexOf("<!-- /note -->");
  return start !== -1 && end > start ? `\n${section.slice(start, end + "<!-- /note -->".length)}\n` : "";
}
