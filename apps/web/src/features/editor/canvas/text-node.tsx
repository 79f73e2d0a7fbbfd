"use client";

import type { NodeProps } from "@xyflow/react";
import { useT } from "../../../i18n/i18n-provider";
import type { EditorFlowNode } from "../graph/editor-graph";
import { useNodeTypes } from "../../node-types/node-types-context";
import { NodeFrame } from "./node-frame";

/** Input and output nodes: their text, trimmed to a preview. */
export function TextNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const content = data.node.content?.trim();
  return (
    <NodeFrame data={data} selected={selected} kind="text">
      {content ? (
        <p className="wf-node__preview" translate="no">{content}</p>
      ) : (
        <p className="wf-node__placeholder">{nodeTypes.isSink(data.node.type) ? t("editor.node.receivesResult") : t("editor.node.noContent")}</p>
      )}
      {data.liveText ? <p className="wf-node__live" translate="no">{data.liveText}</p> : null}
    </NodeFrame>
  );
}
