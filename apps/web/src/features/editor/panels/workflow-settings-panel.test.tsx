import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { nodeTypeCatalogue } from "../../node-types/node-type-catalogue";
import { NodeTypesContext } from "../../node-types/node-types-context";
import { WorkflowSettingsPanel } from "./workflow-settings-panel";
import type { WorkflowSettingsDraft } from "./workflow-settings.type";

const settings = (knowledgeBase: string | null): WorkflowSettingsDraft => ({ name: "Demo", description: "", prompts: {}, outputFormat: "", knowledgeBase, intensity: "LOW" });

function renderPanel(knowledgeBase: string | null) {
  render(
    <I18nProvider>
      <NodeTypesContext.Provider value={nodeTypeCatalogue([])}>
        <WorkflowSettingsPanel
          saved={settings(knowledgeBase)}
          draft={settings(knowledgeBase)}
          knowledgeBases={[{ id: "kb-1", name: "handbook" }]}
          readOnly={false}
          onChange={() => undefined}
          onSave={async () => true}
        />
      </NodeTypesContext.Provider>
    </I18nProvider>,
  );
  return screen.getByLabelText("Default knowledge base") as HTMLSelectElement;
}

describe("the workflow's default knowledge base", () => {
  it("offers the server's knowledge bases by name", () => {
    const select = renderPanel("handbook");
    expect([...select.options].map((option) => option.textContent)).toContain("handbook");
    expect(select.value).toBe("handbook");
  });

  it("keeps a stored name the server does not know selected, worded as the node settings word it", () => {
    const select = renderPanel("gone");
    expect(select.value).toBe("gone");
    expect(select.selectedOptions[0]?.textContent).toBe("gone (no such knowledge base)");
  });
});
