import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import type { Language } from "@/i18n/dictionary.type";
import { readGateRefusal } from "./gate-refusal";
import { GateRefusalNotice } from "./gate-refusal-notice";
import { UserErrorList } from "./user-error-list";

vi.mock("next/link", () => ({ default: ({ href, children }: { href: string; children: unknown }) => <a href={href}>{children as string}</a> }));

const ERRORS = [
  { code: "PUBLISH_GATE_FAILED", message: "experiment cand: scorers below the minimum mean 0.5: exact (mean 0.333)", path: ["scorers", "exact"], experimentIds: ["cand"] },
  { code: "PUBLISH_GATE_FAILED", message: "experiment cand: 1 rows regressed against version 1 (experiment base): rows 1", path: ["rows", "row-1"], experimentIds: ["cand", "base"] },
];

const renderIn = (language: Language, node: ReactNode) => render(<I18nProvider initialLanguage={language}>{node}</I18nProvider>);

describe("the publish gate's refusal in the publish dialog", () => {
  it("names the failing scorer and the regressed rows and links to the comparison of both experiments", () => {
    renderIn("en", <GateRefusalNotice workflowId="wf" refusal={readGateRefusal(ERRORS)!} />);
    expect(screen.getByTestId("gate-refusal-scorers").textContent).toBe("Scorers below the minimum mean: exact");
    expect(screen.getByTestId("gate-refusal-rows").textContent).toBe("Rows that regressed: 1");
    expect(screen.getByText("Compare the two experiments").getAttribute("href")).toBe("/workflows/wf/experiments/compare?a=base&b=cand");
  });

  it("links to the draft's experiment when nothing was compared (a first version)", () => {
    renderIn("ko", <GateRefusalNotice workflowId="wf" refusal={readGateRefusal([ERRORS[0]!])!} />);
    expect(screen.getByText("초안의 실험 열기").getAttribute("href")).toBe("/workflows/wf/experiments/cand");
    expect(screen.queryByTestId("gate-refusal-rows")).toBeNull();
  });
});

describe("a form's refusals", () => {
  it("say what each code means in the user's language, with the server's sentence and where", () => {
    const { container } = renderIn("ko", <UserErrorList errors={[{ code: "VALIDATION_FAILED", message: "line 2: both expected and expected_json", path: ["text", "line 2"] }, { code: "SOMETHING_NEW", message: "odd" }]} />);
    const items = [...container.querySelectorAll("li")];
    expect(items.map((item) => item.getAttribute("data-code"))).toEqual(["VALIDATION_FAILED", "SOMETHING_NEW"]);
    expect(items[0]!.textContent).toBe("올바르지 않음 (line 2)line 2: both expected and expected_json");
    expect(items[1]!.textContent).toContain("SOMETHING_NEW");
  });

  it("show nothing when there is nothing to show", () => {
    const { container } = renderIn("en", <UserErrorList errors={[]} />);
    expect(container.textContent).toBe("");
  });
});
