import { render, screen } from "@testing-library/react";
import { ReactFlowProvider } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { nodeTypeCatalogue, type NodeTypeInfo } from "../../node-types/node-type-catalogue";
import { NodeTypesContext } from "../../node-types/node-types-context";
import type { EditorNodeData } from "../graph/editor-graph";
import { NodeFrame } from "./node-frame";

const retrieveType: NodeTypeInfo = {
  type: "retrieve",
  label: "retrieve",
  description: "Searches a knowledge base.",
  component: "ToolNode",
  profile: "pipeline",
  usesModel: false,
  attributes: [],
  ports: ["out"],
  portsField: null,
  router: false,
  composite: false,
  defaultConfig: null,
  fields: [],
  inDegree: { min: 1, max: null },
  outDegree: { min: 1, max: null },
};

function renderFrame(data: Partial<EditorNodeData>) {
  render(
    <I18nProvider>
      <NodeTypesContext.Provider value={nodeTypeCatalogue([retrieveType])}>
        <ReactFlowProvider>
          <NodeFrame data={{ node: { id: "retrieve", type: "retrieve" }, ports: ["out"], ...data }} selected={false} kind="pipeline">
            <p>body</p>
          </NodeFrame>
        </ReactFlowProvider>
      </NodeTypesContext.Provider>
    </I18nProvider>,
  );
}

describe("a node's card", () => {
  it("shows a loop header's latest feedback on one line under its title, whole on hover and named for screen readers", () => {
    const feedback = "self-attention, positional encoding, and the multi-head split that the chunks never explain";
    renderFrame({ status: "RUNNING", badges: ["2/3"], loopFeedback: feedback });
    const line = screen.getByTestId("loop-feedback-retrieve");
    expect(line.getAttribute("title")).toBe(feedback);
    expect(line.textContent).toBe(`Latest loop feedback: ${feedback}`);
    expect(line.querySelector(".visually-hidden")?.textContent).toBe("Latest loop feedback: ");
    // Under the title row, before the body.
    expect(line.previousElementSibling?.classList.contains("wf-node__header")).toBe(true);
    expect(line.nextElementSibling?.classList.contains("wf-node__body")).toBe(true);
  });

  it("has no feedback line when the node heads no loop that went round with a reason", () => {
    renderFrame({ status: "COMPLETED", badges: [] });
    expect(screen.queryByTestId("loop-feedback-retrieve")).toBeNull();
  });
});
