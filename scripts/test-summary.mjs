// Adds up the vitest summaries ("Tests  12 passed | 1 skipped (13)") of every package in a test log
// and prints one closing line for the whole suite: "tests: N passed, N failed, N skipped".
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2] ?? 0, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
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
  console.log("tests: 0 passed, 0 failed (no test summary found)");
  process.exit(1);
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
