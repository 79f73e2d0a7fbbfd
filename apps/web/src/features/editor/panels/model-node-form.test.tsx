import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { ModelNodeForm } from "./model-node-form";
import type { ProviderOption } from "./panel-options.type";

const providers: ProviderOption[] = [
  { id: "offline", label: "Offline", models: [{ id: "echo", label: "Echo", testOnly: true }] },
  { id: "mistral", label: "Mistral", models: [{ id: "mistral-small-latest", label: "Mistral Small", testOnly: false }] },
];

function renderForm(onSave = vi.fn(async () => true)) {
  render(
    <I18nProvider>
      <ModelNodeForm node={{ id: "g1", type: "generation" }} providers={providers} readOnly={false} onSave={onSave} />
    </I18nProvider>,
  );
  return onSave;
}

describe("ModelNodeForm", () => {
  it("offers the chosen provider's models only", () => {
    renderForm();
    fireEvent.change(screen.getByLabelText("Provider"), { target: { value: "mistral" } });
    const options = [...(screen.getByLabelText("Model") as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(["", "mistral-small-latest"]);
  });

  it("refuses params that are not a JSON object and keeps Save disabled", () => {
    const onSave = renderForm();
    fireEvent.change(screen.getByLabelText("Parameters (JSON object)"), { target: { value: "{temperature: 1}" } });
    expect(screen.getByRole("alert").textContent).toContain("Not valid JSON");
    const save = screen.getByRole("button", { name: "Save node" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.submit(save.closest("form") as HTMLFormElement);
    expect(onSave).not.toHaveBeenCalled();
  });

  it("saves provider, model and parsed params", () => {
    const onSave = renderForm();
    fireEvent.change(screen.getByLabelText("Provider"), { target: { value: "offline" } });
    fireEvent.change(screen.getByLabelText("Model"), { target: { value: "echo" } });
    fireEvent.change(screen.getByLabelText("Parameters (JSON object)"), { target: { value: '{"temperature": 0.1}' } });
    fireEvent.click(screen.getByRole("button", { name: "Save node" }));
    expect(onSave).toHaveBeenCalledWith({ provider: "offline", model: "echo", prompt: null, params: { temperature: 0.1 } });
  });

  it("reports unsaved edits while the draft differs from the node, and none once it is gone", () => {
    const onDirtyChange = vi.fn();
    const { unmount } = render(
      <I18nProvider>
        <ModelNodeForm node={{ id: "g1", type: "generation" }} providers={providers} readOnly={false} onSave={vi.fn(async () => true)} onDirtyChange={onDirtyChange} />
      </I18nProvider>,
    );
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
    fireEvent.change(screen.getByLabelText("Provider"), { target: { value: "offline" } });
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);
    unmount();
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
  });
});
