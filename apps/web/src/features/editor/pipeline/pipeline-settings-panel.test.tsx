import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { ToastProvider } from "../../../ui/toast";
import { LoopDialog } from "./loop-dialog";
import { PipelineSettingsPanel } from "./pipeline-settings-panel";

// Refusals go to a toast through the API's error wording; here only success is exercised.
vi.mock("../../../ui/user-errors", () => ({
  useReportOutcome: () => (_title: string, outcome: { errors?: readonly unknown[] | null }) => !outcome.errors?.length,
}));

const wrap = (children: React.ReactNode) => (
  <I18nProvider>
    <ToastProvider>{children}</ToastProvider>
  </I18nProvider>
);

describe("the workflow's state channels, loops and limits", () => {
  it("adds a channel and saves the channels as a whole", async () => {
    const save = vi.fn(async () => ({ ok: true as const }));
    render(wrap(<PipelineSettingsPanel settings={{ loops: [], state: { notes: { reducer: "append" } }, limits: {} }} readOnly={false} save={save} />));
    const form = screen.getByRole("form", { name: "State channels" });
    fireEvent.click(within(form).getByRole("button", { name: "+ Add channel" }));
    const names = within(form).getAllByLabelText("Channel name");
    fireEvent.change(names[1]!, { target: { value: "seen" } });
    fireEvent.change(within(form).getAllByLabelText("Reducer")[1]!, { target: { value: "appendUnique" } });
    fireEvent.change(within(form).getByLabelText("Key field"), { target: { value: "chunkId" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save channels" }));
    expect(save).toHaveBeenCalledWith({ state: { notes: { reducer: "append" }, seen: { reducer: "appendUnique", key: "chunkId" } } });
    expect(await screen.findByText("Saved")).toBeTruthy();
  });

  it("changes a loop's bound and exit", () => {
    const save = vi.fn(async () => ({ ok: true as const }));
    render(wrap(<PipelineSettingsPanel settings={{ loops: [{ id: "regen", max: 3, exit: null }], state: {}, limits: {} }} readOnly={false} save={save} />));
    const form = screen.getByRole("form", { name: "Loops" });
    fireEvent.change(within(form).getByLabelText("Max iterations"), { target: { value: "5" } });
    fireEvent.change(within(form).getByLabelText("Exit port"), { target: { value: "fail" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save loops" }));
    expect(save).toHaveBeenCalledWith({ loops: [{ id: "regen", max: 5, exit: "fail" }] });
  });

  it("saves the limits together, so changing one keeps the other (the cost limit is kept when the invocations change)", () => {
    const save = vi.fn(async () => ({ ok: true as const }));
    render(wrap(<PipelineSettingsPanel settings={{ loops: [], state: {}, limits: { maxInvocations: 200, maxCostUsd: 0.5 } }} readOnly={false} save={save} />));
    const form = screen.getByRole("form", { name: "Limits" });
    fireEvent.change(within(form).getByLabelText(/Most node invocations/), { target: { value: "300" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save limits" }));
    expect(save).toHaveBeenCalledWith({ limits: { maxInvocations: 300, maxCostUsd: 0.5 } });
  });
});

describe("closing a loop from a router's port", () => {
  it("declares the loop with its bound and the port taken once it is reached", () => {
    const onConfirm = vi.fn();
    render(
      wrap(
        <LoopDialog
          plan={{ kind: "loop", source: "check", target: "draft", sourcePort: "retry", loop: "loop", declared: false }}
          ports={["pass", "retry", "fail"]}
          busy={false}
          onConfirm={onConfirm}
          onCancel={() => undefined}
        />,
      ),
    );
    const dialog = screen.getByRole("dialog", { name: "Close a loop" });
    const exits = [...(within(dialog).getByLabelText("Once the bound is reached") as HTMLSelectElement).options].map((option) => option.value);
    expect(exits).toEqual(["", "pass", "fail"]);
    fireEvent.change(within(dialog).getByLabelText("Loop id"), { target: { value: "regen" } });
    fireEvent.change(within(dialog).getByLabelText("At most this many iterations (1–100)"), { target: { value: "101" } });
    expect((within(dialog).getByRole("button", { name: "Create loop edge" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("At most this many iterations (1–100)"), { target: { value: "4" } });
    fireEvent.change(within(dialog).getByLabelText("Once the bound is reached"), { target: { value: "pass" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create loop edge" }));
    expect(onConfirm).toHaveBeenCalledWith({ id: "regen", max: 4, exit: "pass" });
  });
});
