// Adds up the vitest summaries ("Tests  12 passed | 1 skipped (13)") of every package in a test log
// and prints one closing line for the whole suite: "tests: N passed, N failed, N skipped".
import { readFileSync } from "node:fs";
import process from "node:process";

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const log = readFileSync(process.argv[2] ?? 0, "utf8").replace(ANSI_COLOUR, "");
const totals = { passed: 0, failed: 0, skipped: 0 };
let files = 0;
for (const line of log.split("\n")) {
  const match = /^(?:\S+:\s+)?\s*Tests\s+(.+?)\s+\(\d+\)\s*$/.exec(line);
  if (!match?.[1]) continue;
  files += 1;
  for (const part of match[1].split("|")) {
    const [count, kind] = part.trim().split(/\s+/);
    if (kind === "passed" || kind === "failed") totals[kind] += Number(count);
    else if (kind === "skipped" || kind === "todo") totals.skipped += Number(count);
  }
}
if (files === 0) {
  process.stdout.write("tests: 0 passed, 0 failed (no test summary found)\n");
  process.exit(1);
}
process.stdout.write(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
