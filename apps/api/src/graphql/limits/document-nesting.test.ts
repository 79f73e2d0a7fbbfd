import { parse } from "graphql";
import { describe, expect, test } from "vitest";
import { checkDocumentNesting } from "./document-nesting.js";

const limits = { maxValueDepth: 64, maxSelectionNesting: 76 };
const codeOf = (query: string) => checkDocumentNesting(query, limits)?.extensions["code"] ?? null;
const list = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
const object = (levels: number) => `${"{ a: ".repeat(levels)}1${" }".repeat(levels)}`;
const selections = (levels: number) => `{ ${"a { ".repeat(levels)}b${" }".repeat(levels)} }`;

describe("checkDocumentNesting", () => {
  test("a literal nested 10,000 levels deep is refused with VALUE_TOO_DEEP before graphql-js's parser overflows on it", () => {
    const query = `mutation { importWorkflow(document: ${list(10_000)}) { errors { code } } }`;
    expect(() => parse(query)).toThrow(RangeError);
    expect(codeOf(query)).toBe("VALUE_TOO_DEEP");
  });

  test("argument values count lists and objects alike, up to WEFT_MAX_VALUE_DEPTH included", () => {
    expect(codeOf(`{ f(a: ${list(64)}) }`)).toBeNull();
    expect(codeOf(`{ f(a: ${list(65)}) }`)).toBe("VALUE_TOO_DEEP");
    expect(codeOf(`{ f(a: ${object(65)}) }`)).toBe("VALUE_TOO_DEEP");
    expect(codeOf(`query ($v: [[Int]] = ${list(65)}) { f(a: $v) }`)).toBe("VALUE_TOO_DEEP");
  });

  test("selection sets do not count as value depth, and each argument list counts from its own start", () => {
    expect(codeOf(`{ ${"a(x: [[1]]) { ".repeat(40)}b${" }".repeat(40)} }`)).toBeNull();
    expect(codeOf(`{ a(x: ${list(40)}, y: ${list(40)}) { b(z: ${list(40)}) } }`)).toBeNull();
  });

  test("selection sets nested past the bound are refused with QUERY_TOO_DEEP; a real introspection query passes", () => {
    expect(codeOf(selections(75))).toBeNull();
    expect(codeOf(selections(10_000))).toBe("QUERY_TOO_DEEP");
    expect(codeOf(`{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }`)).toBeNull();
  });

  test("a document the lexer cannot read is left for the parser to report", () => {
    expect(checkDocumentNesting(`{ f(a: "unterminated) }`, limits)).toBeNull();
    expect(checkDocumentNesting(`}}} {`, limits)).toBeNull();
  });
});
