import { describe, expect, it } from "vitest";
import { en } from "../../../i18n/en/index";
import { ko } from "../../../i18n/ko/index";
import { translate } from "../../../i18n/translate";
import type { Translate } from "../../../i18n/i18n-provider";
import { violationReason } from "./violation-reason";

const english: Translate = (key, vars) => translate(en, key, vars);
const korean: Translate = (key, vars) => translate(ko, key, vars);

describe("violationReason", () => {
  it("puts the translated rule before the server's message and code", () => {
    const refusal = { code: "OUTPUT_UNIQUE", message: 'output node "out" cannot be deleted' };
    expect(violationReason(english, refusal)).toEqual({
      title: "A workflow has exactly one output node.",
      detail: 'output node "out" cannot be deleted [OUTPUT_UNIQUE]',
    });
    expect(violationReason(korean, refusal).title).toBe("워크플로에는 출력 노드가 정확히 하나 있어야 합니다.");
  });

  it("falls back to a generic sentence for codes it does not know", () => {
    expect(violationReason(english, { code: "NOT_FOUND", message: "gone" })).toEqual({ title: "Refused.", detail: "gone [NOT_FOUND]" });
  });
});
