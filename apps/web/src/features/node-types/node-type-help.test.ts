import { describe, expect, it } from "vitest";
import { describeNodeTypes, builtInRegistry } from "@weft/engine";
import { koreanFieldHelp } from "./use-node-type-help";
import { NODE_TYPE_HELP_KO } from "./node-type-help.ko";
import { TYPE_LABEL_KEYS } from "./use-node-type-label";

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema };

/** Every field path of a config schema with a description: top-level fields and a list's items' fields. */
function fieldPaths(schema: Schema, prefix = ""): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => [
    ...(field.description ? [`${prefix}${name}`] : []),
    ...(field.items?.properties ? fieldPaths(field.items, `${prefix}${name}.`) : []),
  ]);
}

describe("the Korean node-type help", () => {
  const types = describeNodeTypes(builtInRegistry);

  it("describes every built-in node type in Korean", () => {
    expect(types.filter((type) => !NODE_TYPE_HELP_KO.types[type.type]).map((type) => type.type)).toEqual([]);
  });

  it("names every built-in node type through a message (so it is translated), not the API's English label", () => {
    expect(types.filter((type) => !TYPE_LABEL_KEYS[type.type]).map((type) => type.type)).toEqual([]);
  });

  it("explains every field of every built-in type in Korean", () => {
    const missing = types.flatMap((type) => fieldPaths(type.configSchema as Schema).filter((path) => !koreanFieldHelp(type.type, path)).map((path) => `${type.type}.${path}`));
    expect(missing).toEqual([]);
  });

  it("finds a list item's field help under its list's name", () => {
    expect(koreanFieldHelp("switch", "cases[2].when")).toBe(NODE_TYPE_HELP_KO.fields["cases.when"]);
    expect(koreanFieldHelp("join", "mode")).toBe(NODE_TYPE_HELP_KO.typeFields["join.mode"]);
  });
});
