"use client";

import type { NodeProps } from "@xyflow/react";
import { useT } from "../../../i18n/i18n-provider";
import type { EditorFlowNode } from "../graph/editor-graph";
import { NodeFrame } from "./node-frame";

/** Generation, ensemble and validation nodes: the model they call and whether they override the prompt. */
export function ModelNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const t = useT();
  const { provider, model, prompt } = data.node;
  return (
    <NodeFrame data={data} selected={selected} kind="model">
      {provider && model ? (
        <p className="wf-node__model">
          <span>{provider}</span> / <strong>{model}</strong>
        </p>
      ) : (
        <p className="wf-node__placeholder wf-node__placeholder--warn">{t("editor.node.noModel")}</p>
      )}
      {prompt ? <p className="wf-node__tag">{t("editor.node.promptOverride")}</p> : null}
      {data.liveText ? <p className="wf-node__live">{data.liveText}</p> : null}
    </NodeFrame>
  );
}
