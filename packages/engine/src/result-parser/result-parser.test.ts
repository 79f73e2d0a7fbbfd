import { describe, expect, it } from "vitest";
import { REPLY_PREVIEW_LENGTH, ResultParseError } from "./result-parse.error.js";
import { parseResult, parseTextContent } from "./result-parser.js";

function parseError(reply: string): ResultParseError {
  try {
    parseResult(reply);
  } catch (error) {
    if (error instanceof ResultParseError) return error;
    throw error;
  }
  throw new Error("expected a parse error");
}

describe("parseResult", () => {
  it("reads description and output from a bare JSON object", () => {
    expect(parseResult('{"description": "summary", "output": "value"}')).toEqual({
      description: "summary",
      output: "value",
    });
  });

  it("reads the object inside a fenced json block", () => {
    const reply = 'Here you go:\n```json\n{"description": "d", "output": "o"}\n```\nAnything else?';
    expect(parseResult(reply)).toEqual({ description: "d", output: "o" });
  });

  it("reads one object surrounded by prose, even when the prose holds braces and quotes", () => {
    const reply = 'Sure, I filled {context} in. He said "ok.\n{"description": "d}", "output": "o\\"{"} Done.';
    expect(parseResult(reply)).toEqual({ description: "d}", output: 'o"{' });
  });

  it("accepts the same object repeated twice", () => {
    const object = '{"description": "d", "output": "o"}';
    expect(parseResult(`${object}\nAgain: ${object}`)).toEqual({ description: "d", output: "o" });
  });

  it("JSON-encodes values that are not strings", () => {
    expect(parseResult('{"description": 3, "output": {"a": [1, null]}}')).toEqual({
      description: "3",
      output: '{"a":[1,null]}',
    });
  });

  it("refuses an empty reply", () => {
    expect(parseError("   ").reason).toBe("the reply is empty");
  });

  it("refuses a reply with no JSON object and shows its start", () => {
    const error = parseError("I cannot help with that.");
    expect(error.code).toBe("RESULT_PARSE_ERROR");
    expect(error.reason).toMatch(/no JSON object/);
    expect(error.message).toContain('"I cannot help with that."');
  });

  it("refuses a broken JSON object rather than guessing", () => {
    expect(parseError('{"description": "d", "output": "o"').reason).toMatch(/no JSON object/);
  });

  it("refuses several objects that disagree", () => {
    const error = parseError('{"description": "a", "output": "1"} or {"description": "b", "output": "2"}');
    expect(error.reason).toBe("the reply holds 2 different JSON objects; expected exactly one");
  });

  it("refuses several fenced blocks that disagree", () => {
    const reply = '```json\n{"description": "a", "output": "1"}\n```\n```json\n{"description": "b", "output": "2"}\n```';
    expect(parseError(reply).reason).toMatch(/2 different JSON objects/);
  });

  it("names a missing output key", () => {
    expect(parseError('{"description": "d"}').reason).toBe('the JSON object has no "output" key');
  });

  it("names both keys when both are missing", () => {
    expect(parseError('{"answer": 42}').reason).toBe('the JSON object has no "description" and "output" key');
  });

  it("does not look for the keys inside a nested object", () => {
    expect(parseError('{"result": {"description": "d", "output": "o"}}').reason).toMatch(/no "description"/);
  });

  it("truncates a long reply in the message", () => {
    const error = parseError("x".repeat(5000));
    expect(error.replyStart.length).toBeLessThan(REPLY_PREVIEW_LENGTH + 40);
    expect(error.replyStart).toContain("(5000 characters)");
  });
});

describe("parseTextContent", () => {
  it("passes a text node's content through the parser unchanged", () => {
    const content = 'quotes " and braces {output_format} and ```fences```';
    expect(parseTextContent(content)).toEqual({ description: content, output: content });
  });
});
