import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseWorkflowDocument, builtInRegistry, validateWorkflow } from "@weft/engine";
import { describe, expect, it } from "vitest";

const EXAMPLES = resolve(fileURLToPath(import.meta.url), "../../../../examples");
const MODELS = [
  { provider: "offline", model: "echo" },
  { provider: "offline", model: "scripted" },
  { provider: "mistral", model: "mistral-small-latest" },
];

describe("the example workflows in examples/", () => {
  it("are all well-formed and keep every rule, given the offline and Mistral models", async () => {
    const files = (await readdir(EXAMPLES)).filter((name) => name.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const name of files) {
      const parsed = parseWorkflowDocument(await readFile(join(EXAMPLES, name), "utf8"), { registry: builtInRegistry });
      expect({ name, ok: parsed.ok }).toEqual({ name, ok: true });
      if (parsed.ok) expect({ name, violations: validateWorkflow(parsed.workflow, { models: MODELS, registry: builtInRegistry }) }).toEqual({ name, violations: [] });
    }
  });
});
