import { gzipSync } from "node:zlib";
import { celEnv, parse as bufParse, plan as bufPlan } from "@bufbuild/cel";
import { Environment } from "@marcbachmann/cel-js";
import { compileExpression } from "@weft/engine";
import { build } from "esbuild";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * The two maintained CEL libraries for TypeScript, side by side on the conditions workflows use:
 * compile (parse + check/plan) and evaluate cost, how each reports a syntax error, and what each adds
 * to a browser bundle (the editor compiles expressions as the user types). Also Weft's own cost per
 * evaluation of a compiled condition, JSON conversion included.
 */

const EXPRESSIONS = [
  'input.score >= 0.7 && input.verdict == "pass"',
  "size(state.documents) < 3",
  'loops.regen.iteration < loops.regen.max || "force" in run.inputs',
  "input.tags.exists(tag, tag.startsWith(\"urgent\"))",
];
const VARIABLES = {
  input: { score: 0.8, verdict: "pass", tags: ["normal", "urgent-fix"] },
  inputs: {},
  state: { documents: [1, 2] },
  loops: { regen: { iteration: 2n, max: 3n } },
  run: { inputs: { q: "hello" } },
};
const BAD = ["input.score >=", "input.score >= 0.7 &&& x", "size(state.documents"];

function nsPer(work: () => void, iterations: number): number {
  for (let k = 0; k < Math.min(iterations, 2_000); k += 1) work();
  const started = performance.now();
  for (let k = 0; k < iterations; k += 1) work();
  return Math.round(((performance.now() - started) * 1e6) / iterations);
}

function bufbuildCosts() {
  const env = celEnv();
  const compiled = EXPRESSIONS.map((source) => bufPlan(env, bufParse(source)));
  return {
    compileNs: nsPer(() => EXPRESSIONS.forEach((source) => bufPlan(env, bufParse(source))), 2_000) / EXPRESSIONS.length,
    evaluateNs: nsPer(() => compiled.forEach((run) => run(VARIABLES)), 50_000) / EXPRESSIONS.length,
    errors: BAD.map((source) => {
      try {
        bufParse(source);
        return "accepted";
      } catch (error) {
        const location = (error as { location?: { start?: { offset?: number } } }).location;
        return `offset ${location?.start?.offset ?? "?"}: ${(error as Error).message.split("\n")[0]}`;
      }
    }),
  };
}

function marcbachmannCosts() {
  const env = new Environment({ homogeneousAggregateLiterals: false })
    .registerVariable("input", "dyn")
    .registerVariable("inputs", "map")
    .registerVariable("state", "map")
    .registerVariable("loops", "map")
    .registerVariable("run", "map");
  const compile = (source: string) => {
    const program = env.parse(source);
    program.check();
    return program;
  };
  const compiled = EXPRESSIONS.map(compile);
  return {
    compileNs: nsPer(() => EXPRESSIONS.forEach(compile), 2_000) / EXPRESSIONS.length,
    evaluateNs: nsPer(() => compiled.forEach((run) => run(VARIABLES)), 50_000) / EXPRESSIONS.length,
    errors: BAD.map((source) => {
      const result = env.check(source);
      if (result.valid) return "accepted";
      const error = result.error as unknown as { summary?: string; range?: { start?: number } };
      return `offset ${error.range?.start ?? "?"}: ${error.summary ?? "?"}`;
    }),
  };
}

async function bundleBytes(entry: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: "js" }, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code).length };
}

/** Weft's path: compiled once (cached), evaluated with JSON numbers and the CEL result turned back to JSON. */
function weftEvaluateNs(): number {
  const variables = { ...VARIABLES, loops: { regen: { iteration: 2, max: 3 } } };
  const compiled = EXPRESSIONS.map((source) => {
    const result = compileExpression(source);
    if (!result.ok) throw new Error(result.message);
    return result.evaluate;
  });
  return nsPer(() => compiled.forEach((evaluate) => evaluate(variables)), 50_000) / EXPRESSIONS.length;
}

export async function run(): Promise<void> {
  const machine = machineInfo();
  const libraries = {
    "@bufbuild/cel 0.6.1": { ...bufbuildCosts(), bundle: await bundleBytes('import {parse,plan,celEnv} from "@bufbuild/cel"; console.log(plan(celEnv(), parse("a")));') },
    "@marcbachmann/cel-js 8.0.0": { ...marcbachmannCosts(), bundle: await bundleBytes('import {Environment} from "@marcbachmann/cel-js"; console.log(new Environment().parse("a"));') },
  };
  const weft = weftEvaluateNs();
  console.log(`\nCEL — ${machineLine(machine)}`);
  for (const [name, costs] of Object.entries(libraries)) {
    console.log(`  ${name}: compile ${Math.round(costs.compileNs)} ns, evaluate ${Math.round(costs.evaluateNs)} ns, bundle ${costs.bundle.minified} B (${costs.bundle.gzipped} B gzip)`);
  }
  console.log(`  Weft (marcbachmann, JSON in and out): evaluate ${Math.round(weft)} ns per condition`);
  writeResult("cel", { machine, expressions: EXPRESSIONS, libraries, weftEvaluateNs: weft });
  const rows = Object.entries(libraries).map(
    ([name, costs]) =>
      `| ${name} | ${(costs.compileNs / 1000).toFixed(1)} | ${Math.round(costs.evaluateNs)} | ${Math.round(costs.bundle.minified / 1024)} KiB / ${Math.round(costs.bundle.gzipped / 1024)} KiB | ${costs.errors.join("; ")} |`,
  );
  writeDocSection(
    "cel",
    [
      "## CEL libraries and the cost of a condition (cel)",
      "",
      `Measured ${machineLine(machine)} · load average ${machine.loadAverage}. Command: \`pnpm bench -- cel\`.`,
      "",
      `Four conditions of the kind workflows use (${EXPRESSIONS.map((source) => `\`${source}\``).join(", ")}), compiled`,
      "(parse and type check / plan) and evaluated; the cost is per expression, averaged over the four. Bundle: each",
      "library's entry bundled for the browser with esbuild (minified, and gzipped). Errors: what each says about a",
      "broken expression (the editor shows it as the user types).",
      "",
      "| library | compile µs | evaluate ns | browser bundle (min / gzip) | syntax errors reported |",
      "|---|---:|---:|---|---|",
      ...rows,
      "",
      `Weft uses \`@marcbachmann/cel-js\`: faster to compile and to evaluate, a third of the bundle, no dependencies,`,
      "and it reports the offset of an error. One condition costs Weft about",
      `${Math.round(weft)} ns per evaluation, JSON conversion of the variables and the result included.`,
    ].join("\n"),
  );
}
