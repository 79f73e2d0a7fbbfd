import { parse, type OperationDefinitionNode } from "graphql";
import { describe, expect, test } from "vitest";
import { operationDepth } from "./query-depth.js";

function depthOf(query: string): number {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === "OperationDefinition") as OperationDefinitionNode;
  return operationDepth(document, operation);
}

describe("operationDepth", () => {
  test("counts nested fields along the deepest branch", () => {
    expect(depthOf(`{ a }`)).toBe(1);
    expect(depthOf(`{ a { b { c } } d }`)).toBe(3);
  });

  test("follows named and inline fragments without counting them as levels", () => {
    expect(depthOf(`{ a { ...F } } fragment F on T { b { ... on U { c { d } } } }`)).toBe(4);
  });

  test("does not count introspection, so tools can read the schema under a small limit", () => {
    expect(depthOf(`{ __schema { types { fields { type { ofType { ofType { name } } } } } } a }`)).toBe(1);
  });

  test("a fragment spread that refers to itself is not followed forever", () => {
    expect(depthOf(`{ a { ...F } } fragment F on T { b { ...F } }`)).toBe(2);
  });
});
