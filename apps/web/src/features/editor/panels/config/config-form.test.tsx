import { fireEvent, render, screen, within } from "@testing-library/react";
import type { WorkflowNode } from "@weft/engine";
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
  defaultConfig: null,
  fields: [field("writes", { type: "string", "x-weft-kind": "channel" }), field("cases", casesSchema, true), field("mode", { type: "string", enum: ["first", "all"] })],
  inDegree: { min: 1, max: null },
  outDegree: { min: 1, max: null },
};

// Named unlike any engine type: the picker comes from the field's kind, not from the type's name.
const searchType: NodeTypeInfo = {
  ...switchType,
  type: "find_passages",
  label: "find_passages",
  description: "Searches a knowledge base.",
  component: "ToolNode",
  ports: ["out"],
  portsField: null,
  router: false,
  fields: [field("knowledgeBase", { type: "string", minLength: 1, maxLength: 128, "x-weft-kind": "knowledgeBase" }), field("topK", { type: "integer", minimum: 1, maximum: 100 })],
};

const KNOWLEDGE_BASES = [
  { id: "kb-1", name: "rag-handbook" },
  { id: "kb-2", name: "faq" },
];

type Save = (patch: { config: Record<string, unknown> | null }) => Promise<NodeSaveResult>;

function renderForm(onSave: Save = vi.fn(async () => ({ ok: true, errors: [] })), form: { info?: NodeTypeInfo; config?: WorkflowNode["config"]; knowledgeBases?: typeof KNOWLEDGE_BASES } = {}) {
  const info = form.info ?? switchType;
  render(
    <I18nProvider>
      <ConfigForm node={{ id: "node", type: info.type, ...(form.config ? { config: form.config } : {}) }} info={info} channels={["notes"]} knowledgeBases={form.knowledgeBases ?? KNOWLEDGE_BASES} scope="graph" readOnly={false} onSave={onSave} />
    </I18nProvider>,
  );
  return onSave;
}

const optionsOf = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((option) => [option.value, option.textContent]);

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

  it("offers the server's knowledge bases by name for a field that names one, and saves the name", () => {
    const onSave = renderForm(undefined, { info: searchType });
    const picker = screen.getByLabelText("knowledgeBase");
    expect(picker.tagName).toBe("SELECT");
    expect(optionsOf(picker)).toEqual([
      ["", "(default: the run's knowledge base)"],
      ["rag-handbook", "rag-handbook"],
      ["faq", "faq"],
    ]);
    fireEvent.change(picker, { target: { value: "faq" } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(onSave).toHaveBeenCalledWith({ config: { knowledgeBase: "faq" } });
  });

  it("keeps a stored knowledge base the server does not know, saying so", () => {
    const onSave = renderForm(undefined, { info: searchType, config: { knowledgeBase: "old-docs" } });
    const picker = screen.getByLabelText("knowledgeBase") as HTMLSelectElement;
    expect(picker.value).toBe("old-docs");
    expect(picker.selectedOptions[0]?.textContent).toBe("old-docs (no such knowledge base)");
    expect(picker.dataset.unknown).toBe("true");
    fireEvent.change(screen.getByLabelText("topK"), { target: { value: "8" } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(onSave).toHaveBeenCalledWith({ config: { knowledgeBase: "old-docs", topK: 8 } });
  });

  it("points to the knowledge bases page when the server has none", () => {
    renderForm(undefined, { info: searchType, knowledgeBases: [] });
    expect(optionsOf(screen.getByLabelText("knowledgeBase"))).toEqual([["", "(default: the run's knowledge base)"]]);
    expect(screen.getByText("There are no knowledge bases yet.", { exact: false })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Create one under Knowledge bases" }).getAttribute("href")).toBe("/knowledge-bases");
  });

  it("has no empty-state link when knowledge bases exist", () => {
    renderForm(undefined, { info: searchType });
    expect(screen.queryByRole("link")).toBeNull();
  });
});
