import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { I18nProvider, LANGUAGE_STORAGE_KEY } from "@/i18n/i18n-provider";
import type { AgentStepView } from "../live/agent-trace";
import { AgentSteps, ToolCallOrigin } from "./agent-steps";

const steps: AgentStepView[] = [
  {
    step: 1,
    text: "Let me look.",
    finishReason: "tool_calls",
    usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
    calls: [
      { callId: "call_1_1", tool: "lookup", invocation: "research@1.1", arguments: { q: "sky" }, status: "ok", summary: "\"blue\"" },
      { callId: "call_1_2", tool: "lookup", invocation: "research@1.2", arguments: "{bad", status: "failed", summary: "TOOL_ARGUMENTS_INVALID: not a JSON object" },
    ],
  },
  { step: 2, text: "The sky is blue.", finishReason: "stop", usage: { promptTokens: 18, completionTokens: 2, totalTokens: 20 }, calls: [] },
];

afterEach(() => window.localStorage.clear());

describe("agent steps", () => {
  it("shows each step's reply and tokens, and each call's arguments and result or error, and opens a call's node run", () => {
    const onSelect = vi.fn();
    render(
      <I18nProvider>
        <AgentSteps agentId="research" steps={steps} onSelect={onSelect} />
      </I18nProvider>,
    );
    const panel = screen.getByRole("region", { name: "Agent steps" });
    expect(panel.textContent).toContain("2 steps · 32 tokens");
    const [first, second] = within(panel).getAllByRole("listitem").filter((item) => item.classList.contains("agent-step"));
    expect(first!.textContent).toContain("Let me look.");
    expect(first!.textContent).toContain("12 (10 prompt + 2 completion)");
    const failed = first!.querySelector("[data-call-id=call_1_2]")!;
    expect(failed.getAttribute("data-call-status")).toBe("failed");
    expect(failed.querySelector(".pre--error")?.textContent).toBe("TOOL_ARGUMENTS_INVALID: not a JSON object");
    expect(failed.textContent).toContain("{bad");
    expect(first!.querySelector("[data-call-id=call_1_1]")?.textContent).toContain("\"blue\"");
    expect(second!.textContent).toContain("Final answer");
    fireEvent.click(within(failed as HTMLElement).getByRole("button", { name: /Open the call/ }));
    expect(onSelect).toHaveBeenCalledWith("research@research@1.2");
  });

  it("shows arguments as a tree when they are a JSON object, and as the model's text when too long to read as one", () => {
    const long = JSON.stringify({ q: "x".repeat(200_001) });
    const withArguments = (first: unknown, second: unknown): AgentStepView[] => [
      { ...steps[0]!, calls: [{ ...steps[0]!.calls[0]!, arguments: first }, { ...steps[0]!.calls[1]!, arguments: second }] },
    ];
    render(
      <I18nProvider>
        <AgentSteps agentId="research" steps={withArguments('{"q": "sky"}', long)} onSelect={() => undefined} />
      </I18nProvider>,
    );
    const [short, tooLong] = [document.querySelector("[data-call-id=call_1_1]")!, document.querySelector("[data-call-id=call_1_2]")!];
    expect(short.querySelector("[data-testid=json-tree]")).not.toBeNull();
    expect(tooLong.querySelector("[data-testid=json-tree]")).toBeNull();
    expect(tooLong.querySelector(".agent-call__body > pre")?.textContent).toBe(long);
  });

  it("gives each step's cost at the model's configured prices, and none without them", () => {
    const { unmount } = render(
      <I18nProvider>
        <AgentSteps agentId="research" steps={steps} price={{ inputUsdPerMTok: 3, outputUsdPerMTok: 15 }} onSelect={() => undefined} />
      </I18nProvider>,
    );
    // Step 1: 10 prompt and 2 completion tokens → (10 × 3 + 2 × 15) / 1,000,000 dollars.
    expect([...document.querySelectorAll("[data-step-cost]")].map((cost) => cost.textContent)).toEqual(["$0.00006 at the configured price", "$0.000084 at the configured price"]);
    unmount();
    render(
      <I18nProvider>
        <AgentSteps agentId="research" steps={steps} onSelect={() => undefined} />
      </I18nProvider>,
    );
    expect(document.querySelectorAll("[data-step-cost]")).toHaveLength(0);
  });

  it("names a tool call's agent, step and call, and goes back to the agent", () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "ko");
    const onSelect = vi.fn();
    render(
      <I18nProvider>
        <ToolCallOrigin nodeId="research" invocation="regen#2/research@3.2" callId="call_3_2" onSelect={onSelect} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("tool-call-origin").textContent).toContain("3단계, 2번째 호출");
    fireEvent.click(screen.getByRole("button", { name: /에이전트로 돌아가기/ }));
    expect(onSelect).toHaveBeenCalledWith("research@regen#2");
  });
});
