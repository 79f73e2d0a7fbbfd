import { render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { liveEvent } from "../../runs/live/live-event.test-helpers";
import type { LiveEvent } from "../../runs/live/run-projection";
import { ResultsPane } from "./results-pane";

vi.mock("next/link", () => ({ default: ({ href, children }: { href: string; children: ReactNode }) => <a href={href}>{children}</a> }));

let seq = 0;
const event = (type: string, payload: Record<string, unknown>): LiveEvent => liveEvent(++seq, type, payload);

const renderPane = (events: LiveEvent[], extra: Partial<Parameters<typeof ResultsPane>[0]> = {}) =>
  render(
    <I18nProvider>
      <ResultsPane runId="run-1" status="RUNNING" events={events} refusals={[]} {...extra} />
    </I18nProvider>,
  );

describe("ResultsPane", () => {
  it("prints each node's description once, in arrival order, then the run's result", () => {
    renderPane([
      event("RUN_STARTED", { nodeIds: ["in", "gen", "out"] }),
      event("NODE_STARTED", { nodeId: "in", nodeType: "input" }),
      event("NODE_COMPLETED", { nodeId: "in", description: "the question", output: "q" }),
      event("NODE_STARTED", { nodeId: "gen", nodeType: "generation" }),
      event("NODE_TOKEN", { nodeId: "gen", text: '{"descr' }),
      event("NODE_DESCRIPTION", { nodeId: "gen", description: "drafted an answer" }),
      event("NODE_COMPLETED", { nodeId: "gen", description: "drafted an answer", output: "a" }),
      event("RUN_COMPLETED", { result: "final answer", outputs: {} }),
    ]);
    const lines = within(screen.getByRole("list")).getAllByRole("listitem");
    expect(lines.map((li) => li.textContent)).toEqual([
      "in the question",
      "gen drafted an answer",
      expect.stringContaining("final answer"),
    ]);
  });

  it("says when another worker took the run over, in English and in Korean", () => {
    const events = [event("NODE_STARTED", { nodeId: "gen", nodeType: "generation" }), event("RUN_RESUMED", { attempt: 2 })];
    const { unmount } = renderPane(events);
    const line = within(screen.getByRole("list")).getAllByRole("listitem").at(-1);
    expect(line?.getAttribute("data-event-type")).toBe("RUN_RESUMED");
    expect(line?.textContent).toMatch(/^resumed .*another worker took the run over \(attempt 2\)/);
    unmount();
    render(
      <I18nProvider initialLanguage="ko">
        <ResultsPane runId="run-1" status="RUNNING" events={events} refusals={[]} />
      </I18nProvider>,
    );
    expect(screen.getByText(/다른 워커가 실행을 넘겨받았습니다\(시도 2\)/)).toBeTruthy();
  });

  it("shows streamed tokens until the node's description arrives", () => {
    renderPane([
      event("NODE_STARTED", { nodeId: "gen", nodeType: "generation" }),
      event("NODE_TOKEN", { nodeId: "gen", text: "Hel" }),
      event("NODE_TOKEN", { nodeId: "gen", text: "lo" }),
    ]);
    expect(screen.getByText("Hello")).toBeTruthy();
    expect(screen.getByText("streaming…")).toBeTruthy();
  });

  it("prints a failed node's error and the nodes skipped after it", () => {
    renderPane([
      event("NODE_FAILED", { nodeId: "gen", error: { code: "PARSE_ERROR", message: "reply has no JSON object" } }),
      event("NODE_SKIPPED", { nodeId: "out", reason: "UPSTREAM_FAILED", blockedBy: "gen" }),
      event("RUN_FAILED", { error: { code: "NODE_FAILED", message: "node gen failed" }, failedNodeIds: ["gen"] }),
    ]);
    expect(screen.getByText("reply has no JSON object")).toBeTruthy();
    expect(screen.getByText("not run: a node before it failed").getAttribute("data-reason")).toBe("UPSTREAM_FAILED");
    expect(screen.getByText("Run failed")).toBeTruthy();
  });

  it("lists every run refusal with its rule and the nodes it names", () => {
    renderPane([], {
      runId: null,
      status: null,
      refusals: [
        { code: "MISSING_POST", message: 'generation node "g2" feeds no post-node', nodeIds: ["g2"], edgeIds: [] },
        { code: "MODEL_UNAVAILABLE", message: 'generation node "g1" names no model', nodeIds: ["g1"], edgeIds: [] },
      ],
    });
    const alert = screen.getByTestId("run-refusals");
    expect(within(alert).getByText("A node feeds nothing.")).toBeTruthy();
    expect(within(alert).getByText(/names no model \[MODEL_UNAVAILABLE\]/)).toBeTruthy();
    expect(within(alert).getByText("g2")).toBeTruthy();
  });
});
