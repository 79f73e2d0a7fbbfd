import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * package.json's "sideEffects" tells the web app's bundler which engine modules must run when imported
 * even if none of their exports is used; every other module is left out when unused, so a page that takes
 * one helper from the engine (the run page's usageCost) does not carry the whole engine. A call at a
 * module's top level (the RE2 pattern compiler patched into the JSON Schema and CEL libraries) is such an
 * effect: each module with one must be listed, or a page could lose the patch.
 */
const packageRoot = path.resolve(import.meta.dirname, "..");
const TOP_LEVEL_CALL = /^[A-Za-z_$][\w$.]*\(/m;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const listed = (JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { sideEffects: string[] }).sideEffects;

describe("the engine's modules with side effects, as bundlers are told", () => {
  it("lists every module that calls something at its top level, and nothing else", () => {
    const withCalls = sourceFiles(path.join(packageRoot, "src"))
      .filter((file) => TOP_LEVEL_CALL.test(readFileSync(file, "utf8")))
      .map((file) => `./${path.relative(packageRoot, file).split(path.sep).join("/")}`)
      .sort();
    expect(withCalls).toEqual(["./src/expression/cel-expression.ts", "./src/schema/json-schema.check.ts"]);
    expect(listed.filter((entry) => entry.startsWith("./src/")).sort()).toEqual(withCalls);
  });

  it("lists each compiled module beside its source, since the web app imports the compiled engine", () => {
    const compiled = listed.filter((entry) => entry.startsWith("./dist/")).sort();
    const sources = listed.filter((entry) => entry.startsWith("./src/")).sort();
    expect(compiled).toEqual(sources.map((entry) => entry.replace("./src/", "./dist/").replace(/\.ts$/, ".js")));
  });
});
