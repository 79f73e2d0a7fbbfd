import { describe, expect, it } from "vitest";
import { en } from "../../../i18n/en/index";
import { ko } from "../../../i18n/ko/index";
import { translate } from "../../../i18n/translate";
import type { Translate } from "../../../i18n/i18n-provider";
import { violationReason } from "./violation-reason";

const english: Translate = (key, vars) => translate(en, key, vars);
const korean: Translate = (key, vars) => translate(ko, key, vars);

describe("violationReason", () => {
  it("puts the translated rule before the refusal in the UI's language and its code", () => {
    const refusal = { code: "OUTPUT_UNIQUE", message: 'output node "out" cannot be deleted', nodeIds: ["out"] };
    expect(violationReason(english, refusal)).toEqual({
      title: "A workflow has exactly one output node.",
      detail: 'a workflow needs exactly 1 output node; it has "out" [OUTPUT_UNIQUE]',
    });
    expect(violationReason(korean, refusal)).toEqual({
      title: "워크플로에는 출력 노드가 정확히 하나 있어야 합니다.",
      detail: '워크플로에는 출력 노드가 정확히 1개 필요한데 "out"이(가) 있습니다 [OUTPUT_UNIQUE]',
    });
  });

  it("keeps the server's message when the graph does not know a node the sentence names", () => {
    const refusal = { code: "MISSING_POST", message: 'generation node "g9" needs at least 1 post-node', nodeIds: ["g9"] };
    expect(violationReason(korean, refusal, { nodes: [] }).detail).toBe('generation node "g9" needs at least 1 post-node [MISSING_POST]');
  });

  it("falls back to a generic sentence and the server's message for codes it does not know", () => {
    expect(violationReason(english, { code: "SOMETHING_NEW", message: "gone" })).toEqual({ title: "Refused.", detail: "gone [SOMETHING_NEW]" });
  });
});
