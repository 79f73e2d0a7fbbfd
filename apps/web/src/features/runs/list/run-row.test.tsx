import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { RunRow, type RunListItem } from "./run-row";

const run = (change: Partial<RunListItem> = {}): RunListItem => ({
  id: "0b5e2c1a-1111-4222-8333-444455556666",
  workflowId: "9f8e7d6c-1111-4222-8333-444455556666",
  workflowName: "Support answers",
  version: null,
  status: "COMPLETED",
  createdAt: "2026-11-21T10:00:00.000Z",
  startedAt: "2026-11-21T10:00:00.000Z",
  finishedAt: "2026-11-21T10:00:02.000Z",
  durationMs: 2000,
  totalTokens: 42,
  ...change,
});

const inTable = (item: RunListItem) => (
  <I18nProvider>
    <table>
      <tbody>
        <RunRow run={item} now={Date.parse("2026-11-21T10:00:05.000Z")} />
      </tbody>
    </table>
  </I18nProvider>
);

describe("run row", () => {
  it("names the workflow the run ran under and links to it", () => {
    render(inTable(run()));
    const link = screen.getByRole("link", { name: "Support answers" });
    expect(link.getAttribute("href")).toBe("/workflows/9f8e7d6c-1111-4222-8333-444455556666");
  });

  it("shows the published version it executed, or that it ran the draft", () => {
    const { unmount } = render(inTable(run({ version: 3 })));
    expect(screen.getByRole("link", { name: "v3" }).getAttribute("href")).toBe("/workflows/9f8e7d6c-1111-4222-8333-444455556666/versions");
    unmount();
    render(inTable(run()));
    expect(screen.getByTestId("run-version").textContent).toBe("draft");
  });

  it("falls back to the workflow id's prefix when the snapshot has no name", () => {
    render(inTable(run({ workflowName: "" })));
    expect(screen.getByRole("link", { name: "9f8e7d6c" })).toBeTruthy();
  });
});
