"use client";

import type { NodeProps } from "@xyflow/react";
import { useT } from "../../../i18n/i18n-provider";
import type { EditorFlowNode } from "../graph/editor-graph";
import { ConfigSummary } from "./config-summary";
import { NodeFrame } from "./node-frame";

/** The weft.workflow/v2 types that call no model (routers, joins, templates, maps, tools): their config. */
export function PipelineNode({ data, selected }: NodeProps<EditorFlowNode>) {
  const t = useT();
  return (
    <NodeFrame data={data} selected={selected} kind="pipeline">
      <ConfigSummary type={data.node.type} config={data.node.config} fallback={<p className="wf-node__placeholder">{t("pipeline.node.noConfig")}</p>} />
      {data.liveText ? <p className="wf-node__live" translate="no">{data.liveText}</p> : null}
    </NodeFrame>
  );
}
