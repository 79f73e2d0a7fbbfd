import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { RULE_CODES } from "@weft/engine";
import { en } from "../../../i18n/en/index";
import { ko } from "../../../i18n/ko/index";
import { translate } from "../../../i18n/translate";
import type { Translate } from "../../../i18n/i18n-provider";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { ResultsPane } from "../run/results-pane";
import { hasTemplate, localizeViolation } from "./localize-violation";

vi.mock("next/link", () => ({ default: ({ href, children }: { href: string; children: ReactNode }) => <a href={href}>{children}</a> }));

const english: Translate = (key, vars) => translate(en, key, vars);
const korean: Translate = (key, vars) => translate(ko, key, vars);

//  in ──▶ e1 ──▶ g1      (ensemble → generation is forbidden)
const graph = {
  nodes: [
    { id: "in", type: "input" },
    { id: "e1", type: "ensemble" },
    { id: "g1", type: "generation" },
    { id: "out", type: "output" },
  ],
};

describe("localizeViolation", () => {
  it("says in Korean why ensemble → generation is refused, with the graph's ids and types", () => {
    const refusal = { code: "TYPE_PAIR_FORBIDDEN", message: "english", nodeIds: ["e1", "g1"], edgeIds: [] };
    expect(localizeViolation(korean, refusal, graph)).toBe(
      '생성 노드 "g1"은(는) 입력 노드만 이전 노드로 받을 수 있습니다; "e1"은(는) 앙상블 노드입니다',
    );
  });

  it("keeps the English sentence identical to the engine's message", () => {
    const refusal = { code: "TYPE_PAIR_FORBIDDEN", message: "english", nodeIds: ["e1", "g1"], edgeIds: [] };
    expect(localizeViolation(english, refusal, graph)).toBe(
      'generation node "g1" takes only input nodes as pre-nodes; "e1" is an ensemble node',
    );
  });

  it("says in Korean that the last input node cannot be deleted", () => {
    const refusal = { code: "INPUT_REQUIRED", message: "english", nodeIds: ["in"], edgeIds: [] };
    expect(localizeViolation(korean, refusal, graph)).toBe(
      '입력 노드 "in"은(는) 삭제할 수 없습니다: 워크플로에는 입력 노드가 1개 이상 필요합니다',
    );
    expect(localizeViolation(korean, { ...refusal, nodeIds: [] }, graph)).toBe("워크플로에는 입력 노드가 1개 이상 필요하지만 없습니다");
  });

  it("keeps the server's message for a code it has no template for", () => {
    expect(localizeViolation(korean, { code: "SOMETHING_NEW", message: "the server's words" }, graph)).toBe("the server's words");
  });

  it("has a template for every rule code in both languages", () => {
    for (const code of RULE_CODES) {
      expect(hasTemplate(code), code).toBe(true);
      expect(Object.keys(ko.rules), code).toContain(code);
      expect(ko.rules[code as keyof typeof ko.rules], code).not.toBe("");
    }
  });

  it("has a template for the user-error codes the editor shows", () => {
    for (const code of ["VALIDATION_FAILED", "NOT_FOUND", "LIMIT_EXCEEDED", "RATE_LIMITED", "LOCKED_WHILE_RUNNING", "CONFLICT"]) {
      expect(hasTemplate(code), code).toBe(true);
    }
  });
});

describe("refused run list", () => {
  it("lists a refusal in Korean when the UI is in Korean", () => {
    render(
      <I18nProvider initialLanguage="ko">
        <ResultsPane
          runId={null}
          status={null}
          events={[]}
          refusals={[{ code: "TYPE_PAIR_FORBIDDEN", message: "english", nodeIds: ["e1", "g1"], edgeIds: [] }]}
          getGraph={() => graph}
        />
      </I18nProvider>,
    );
    expect(screen.getByTestId("run-refusals").textContent).toContain('생성 노드 "g1"은(는) 입력 노드만 이전 노드로 받을 수 있습니다');
  });
});
