import { describe, expect, it } from "vitest";
import type { MessageKey } from "@/i18n/dictionary.type";
import { en } from "@/i18n/en/index";
import { ko } from "@/i18n/ko/index";
import { translate } from "@/i18n/translate";
import { codeWords } from "./user-errors";

const english = (key: MessageKey) => translate(en, key);
const korean = (key: MessageKey) => translate(ko, key);

describe("a refusal's code in the page's words", () => {
  it("is the dictionaries' message for a code the page words, in the page's language", () => {
    expect(codeWords(english, "mcpTool.code.", "MCP_TOOL_NAME_TAKEN")).toBe("Another workflow already has this name (even a disabled one): rename that one first.");
    expect(codeWords(english, "evaluations.code.", "PUBLISH_GATE_FAILED")).toBe("Refused by the publish gate");
    expect(codeWords(korean, "secrets.error.", "FORBIDDEN")).toBe(ko.secrets["error.FORBIDDEN"]);
  });

  it("is nothing for a code the page does not word, so the caller shows the code and the server's sentence", () => {
    expect(codeWords(english, "mcpTool.code.", "SOMETHING_NEW")).toBeNull();
    expect(codeWords(korean, "evaluations.code.", "MCP_TOOL_NAME_TAKEN")).toBeNull();
  });
});
