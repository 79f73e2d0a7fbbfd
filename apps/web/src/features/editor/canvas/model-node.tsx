"use client";

import type { NodeProps } from "@xyflow/react";
import { useT } from "../../../i18n/i18n-provider";
import type { EditorFlowNode } from "../graph/editor-graph";
import { ConfigSummary } from "./config-summary";
import { NodeFrame } from "./node-frame";

/** Nodes that call a model (generation, ensemble, validation, llm, classify, grade, …): the model, an own prompt, their config. */
export function ModelNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const t = useT();
  const { provider, model, prompt } = data.node;
  return (
    <NodeFrame data={data} selected={selected} kind="model">
      {provider && model ? (
        <p className="wf-node__model" translate="no">
          <span>{provider}</span> / <strong>{model}</strong>
        </p>
      ) : (
        <p className="wf-node__placeholder wf-node__placeholder--warn">{t("editor.node.noModel")}</p>
      )}
      {prompt ? <p className="wf-node__tag">{t("editor.node.promptOverride")}</p> : null}
      <ConfigSummary type={data.node.type} config={data.node.config} />
      {data.liveText ? <p className="wf-node__live" translate="no">{data.liveText}</p> : null}
    </NodeFrame>
  );
}
