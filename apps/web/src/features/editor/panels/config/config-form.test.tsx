import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "../../../../i18n/i18n-provider";
import type { NodeTypeInfo } from "../../../node-types/node-type-catalogue";
import type { NodeSaveResult } from "../../graph/use-graph-edits";
import { ConfigForm } from "./config-form";

const casesSchema = {
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    properties: { port: { type: "string", maxLength: 128 }, when: { type: "string", "x-weft-kind": "cel" } },
    required: ["port", "when"],
    additionalProperties: false,
  },
};

const field = (name: string, schema: Record<string, unknown>, required = false) => ({
  name,
  kind: String(schema["x-weft-kind"] ?? schema["type"] ?? "any"),
  description: "",
  required,
  default: null,
  enumValues: Array.isArray(schema["enum"]) ? schema["enum"].map(String) : null,
  minimum: null,
  maximum: null,
  maxLength: null,
  schema,
});

const switchType: NodeTypeInfo = {
  type: "switch",
  label: "switch",
  description: "A deterministic router.",
  component: "RouterNode",
  profile: "pipeline",
  usesModel: false,
  attributes: [],
  ports: ["default"],
  portsField: "cases",
  router: true,
  composite: false,
  fields: [field("writes", { type: "string", "x-weft-kind": "channel" }), field("cases", casesSchema, true), field("mode", { type: "string", enum: ["first", "all"] })],
  inDegree: { min: 1, max: null },
  outDegree: { min: 1, max: null },
};

function renderForm(onSave: (patch: { config: Record<string, unknown> | null }) => Promise<NodeSaveResult> = vi.fn(async () => ({ ok: true, errors: [] }))) {
  render(
    <I18nProvider>
      <ConfigForm node={{ id: "route", type: "switch" }} info={switchType} channels={["notes"]} scope="graph" readOnly={false} onSave={onSave} />
    </I18nProvider>,
  );
  return onSave;
}

describe("a node's settings form", () => {
  it("shows a CEL condition that does not compile where it breaks, and will not save it", () => {
    const onSave = renderForm();
    fireEvent.click(screen.getByRole("button", { name: "+ Add" }));
    const row = screen.getByRole("listitem");
    fireEvent.change(within(row).getByLabelText("port *"), { target: { value: "long" } });
    fireEvent.change(within(row).getByLabelText("when *"), { target: { value: "input.size( > 20" } });
    const alert = within(row).getByRole("alert");
    expect(alert.querySelector("pre")?.textContent).toMatch(/input\.size\( > 20\n +\^/);
    expect(alert.textContent).toMatch(/Line 1, column \d+/);
    const save = screen.getByRole("button", { name: "Save settings" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(within(row).getByLabelText("when *"), { target: { value: "input.size() > 20" } });
    expect(within(row).queryByRole("alert")).toBeNull();
    fireEvent.change(screen.getByLabelText("mode"), { target: { value: "all" } });
    fireEvent.click(save);
    expect(onSave).toHaveBeenCalledWith({ config: { cases: [{ port: "long", when: "input.size() > 20" }], mode: "all" } });
  });

  it("keeps the server's refusal beside the field it names", async () => {
    const onSave = vi.fn(async (): Promise<NodeSaveResult> => ({
      ok: false,
      errors: [{ code: "EXPRESSION_INVALID", message: "unknown variable", nodeIds: ["route"], edgeIds: [], path: null, field: "cases[0].when", position: 0, bodyPath: null }],
    }));
    renderForm(onSave);
    fireEvent.click(screen.getByRole("button", { name: "+ Add" }));
    const row = screen.getByRole("listitem");
    fireEvent.change(within(row).getByLabelText("port *"), { target: { value: "a" } });
    fireEvent.change(within(row).getByLabelText("when *"), { target: { value: "true" } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(await within(row).findByRole("alert")).toBeTruthy();
    expect(within(row).getByRole("alert").textContent).toContain("unknown variable");
  });

  it("offers the workflow's state channels for writes", () => {
    renderForm();
    const options = [...(screen.getByLabelText("writes") as HTMLSelectElement).options].map((option) => option.value);
    expect(options).toEqual(["", "notes"]);
  });
});
