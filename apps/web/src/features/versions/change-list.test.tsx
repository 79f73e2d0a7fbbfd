import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { ChangeList, printValue, type ChangedItem } from "./change-list";

const items: ChangedItem[] = [
  { id: "gen", status: "changed", caption: "Generation", fields: [{ field: "model", from: "echo", to: "flaky" }, { field: "position.x", from: 0, to: 40 }] },
  { id: "in", status: "moved", caption: "Input", fields: [{ field: "position.y", from: 0, to: 80 }] },
  { id: "out", status: "same", caption: "Output", fields: [] },
];

const renderList = (showLayout: boolean) =>
  render(
    <I18nProvider>
      <ChangeList items={items} showLayout={showLayout} />
    </I18nProvider>,
  );

describe("the list of changes between two versions", () => {
  it("lists what changed in behaviour and leaves layout changes out by default", () => {
    const { container } = renderList(false);
    expect([...container.querySelectorAll("[data-change-id]")].map((item) => item.getAttribute("data-change-id"))).toEqual(["gen"]);
    const gen = container.querySelector('[data-change-id="gen"]') as HTMLElement;
    expect(within(gen).queryByText("position.x")).toBeNull();
    expect(within(gen).getByText("flaky")).toBeTruthy();
  });

  it("shows moved nodes and position fields when asked to", () => {
    const { container } = renderList(true);
    expect([...container.querySelectorAll("[data-change-id]")].map((item) => item.getAttribute("data-change"))).toEqual(["changed", "moved"]);
    expect(screen.getByText("position.x")).toBeTruthy();
  });

  it("prints text as it is and other values as JSON, and nothing for an absent value", () => {
    expect(printValue("plain")).toBe("plain");
    expect(printValue({ delayMs: 20 })).toBe('{\n  "delayMs": 20\n}');
    expect(printValue(null)).toBeNull();
  });
});
