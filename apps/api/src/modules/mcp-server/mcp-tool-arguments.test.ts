import { describe, expect, test } from "vitest";
import { readToolArguments } from "./mcp-tool-arguments.js";

const parameters = {
  type: "object" as const,
  properties: { question: { type: "string" as const, description: "" }, tone: { type: "string" as const, description: "" } },
  required: ["question"],
  additionalProperties: false as const,
};

describe("a tool call's arguments", () => {
  test("become the run's input contents by node id", () => {
    expect(readToolArguments({ question: "why?", tone: "dry" }, parameters)).toEqual({
      ok: true,
      value: [
        { nodeId: "question", content: "why?" },
        { nodeId: "tone", content: "dry" },
      ],
    });
  });

  test("may leave out inputs that have content of their own", () => {
    expect(readToolArguments({ question: "why?" }, parameters)).toMatchObject({ ok: true });
  });

  test("are refused when a required input is missing, even when none are given", () => {
    expect(readToolArguments(undefined, parameters)).toEqual({ ok: false, message: 'missing required argument "question"' });
  });

  test("are refused when they name an input the workflow does not have", () => {
    expect(readToolArguments({ question: "x", __proto__x: "y" }, parameters)).toMatchObject({ ok: false, message: expect.stringContaining('unknown argument "__proto__x"') });
  });

  test("are refused when a value is not a string", () => {
    expect(readToolArguments({ question: { nested: true } }, parameters)).toEqual({ ok: false, message: 'argument "question" must be a string' });
  });

  test("are refused when they are not an object", () => {
    expect(readToolArguments(["question"], parameters)).toMatchObject({ ok: false });
    expect(readToolArguments("question", parameters)).toMatchObject({ ok: false });
  });
});
