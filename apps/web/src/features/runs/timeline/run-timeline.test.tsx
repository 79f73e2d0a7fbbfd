import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { RunTimeline, type TimelineRow } from "./run-timeline";

const rows: TimelineRow[] = [
  { id: "in", nodeId: "in", invocation: "", type: "input", status: "COMPLETED", startedAt: "2026-11-21T10:00:00.000Z", finishedAt: "2026-11-21T10:00:00.100Z" },
  { id: "gen", nodeId: "gen", invocation: "", type: "generation", status: "FAILED", startedAt: "2026-11-21T10:00:00.100Z", finishedAt: "2026-11-21T10:00:00.400Z" },
  { id: "out", nodeId: "out", invocation: "", type: "output", status: "SKIPPED", startedAt: null, finishedAt: null },
];

describe("run timeline", () => {
  it("draws a bar per started node, tinted by state, and says which never started", () => {
    const { container } = render(
      <I18nProvider>
        <RunTimeline rows={rows} origin="2026-11-21T10:00:00.000Z" selected={null} onSelect={() => {}} />
      </I18nProvider>,
    );
    const bars = container.querySelectorAll(".timeline__bar");
    expect(bars).toHaveLength(2);
    expect((bars[1] as HTMLElement).className).toContain("timeline__bar--failed");
    expect((bars[1] as HTMLElement).style.left).toBe("25%");
    expect((bars[1] as HTMLElement).style.width).toBe("75%");
    const durations = [...container.querySelectorAll(".timeline__duration")].map((cell) => cell.textContent);
    expect(durations).toEqual(["100 ms", "300 ms", "not started"]);
  });

  it("draws a resumption as a row of its own, at its moment of the run", () => {
    const { container } = render(
      <I18nProvider>
        <RunTimeline rows={rows} origin="2026-11-21T10:00:00.000Z" selected={null} onSelect={() => {}} marks={[{ key: "resumed-9", at: "2026-11-21T10:00:00.200Z", label: "resumed · attempt 2" }]} />
      </I18nProvider>,
    );
    expect(container.querySelector('[data-mark="resumed-9"]')?.textContent).toBe("resumed · attempt 2");
    expect((container.querySelector(".timeline__mark") as HTMLElement).style.left).toBe("50%");
    expect(container.querySelectorAll(".timeline__bar")).toHaveLength(2);
  });

  it("selects a node when its label is clicked", () => {
    const onSelect = vi.fn();
    render(
      <I18nProvider>
        <RunTimeline rows={rows} origin={null} selected="in" onSelect={onSelect} />
      </I18nProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "gen" }));
    expect(onSelect).toHaveBeenCalledWith("gen");
  });

  it("says so when no node has started", () => {
    render(
      <I18nProvider>
        <RunTimeline rows={[rows[2]!]} origin={null} selected={null} onSelect={() => {}} />
      </I18nProvider>,
    );
    expect(screen.getByText("No node has started yet.")).toBeTruthy();
  });
});
