"use client";

import { Handle, Position } from "@xyflow/react";
import { DEFAULT_PORT } from "@weft/engine";
import type { ReactNode } from "react";
import { useT } from "../../../i18n/i18n-provider";
import type { MessageKey } from "../../../i18n/dictionary.type";
import type { EditorNodeData, EditorNodeKind } from "../graph/editor-graph";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { useNodeTypes } from "../../node-types/node-types-context";

const STATUS_KEYS: Record<string, MessageKey> = {
  PENDING: "editor.status.PENDING",
  RUNNING: "editor.status.RUNNING",
  WAITING: "editor.status.WAITING",
  COMPLETED: "editor.status.COMPLETED",
  FAILED: "editor.status.FAILED",
  SKIPPED: "editor.status.SKIPPED",
};

const STATUS_ICONS: Record<string, string> = { PENDING: "○", RUNNING: "◌", WAITING: "⏸", COMPLETED: "✓", FAILED: "✕", SKIPPED: "⤼" };

/**
 * The card every node type shares: type, id, run state and badges (a loop header's latest feedback under
 * them), and the handles its degree limits
 * allow (no target handle on a type that takes no pre-node, no source handle on one that feeds nothing).
 * A node with more than its one `out` port has a labelled source handle per port (a router's cases,
 * labels or verdicts); every source handle is named by its port.
 */
export function NodeFrame({ data, selected, kind, children }: { data: EditorNodeData; selected: boolean; kind: EditorNodeKind; children: ReactNode }) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  const nodeTypes = useNodeTypes();
  const status = data.status;
  const ports = nodeTypes.isSink(data.node.type) ? [] : data.ports;
  const onlyOut = ports.length === 1 && ports[0] === DEFAULT_PORT;
  const classes = [
    "wf-node",
    `wf-node--${kind}`,
    `wf-node--type-${data.node.type}`,
    status ? `wf-node--${status.toLowerCase()}` : "",
    data.flagged ? "wf-node--flagged" : "",
    selected ? "wf-node--selected" : "",
  ].filter(Boolean);
  return (
    <div className={classes.join(" ")} data-testid={`node-${data.node.id}`} data-status={status ?? "IDLE"} data-flagged={data.flagged ? "true" : undefined}>
      {nodeTypes.isSource(data.node.type) ? null : <Handle type="target" position={Position.Left} />}
      <div className="wf-node__header">
        <span className="wf-node__type">{typeLabel(data.node.type)}</span>
        <span className="wf-node__id" translate="no">{data.node.id}</span>
        {(data.badges ?? []).map((badge) => (
          <span key={badge} className="wf-node__badge" data-badge={badge} translate="no">
            {badge}
          </span>
        ))}
        {status ? (
          <span className={`wf-node__status wf-node__status--${status.toLowerCase()}`} title={t(STATUS_KEYS[status] ?? "editor.status.PENDING")}>
            <span aria-hidden="true">{STATUS_ICONS[status]}</span>
            <span className="visually-hidden">{t(STATUS_KEYS[status] ?? "editor.status.PENDING")}</span>
          </span>
        ) : null}
      </div>
      {data.loopFeedback ? (
        <p className="wf-node__feedback" translate="no" title={data.loopFeedback} data-testid={`loop-feedback-${data.node.id}`}>
          <span className="visually-hidden">{t("pipeline.live.latestFeedback")}: </span>
          {data.loopFeedback}
        </p>
      ) : null}
      <div className="wf-node__body">{children}</div>
      {onlyOut ? <Handle type="source" id={DEFAULT_PORT} position={Position.Right} /> : null}
      {!onlyOut && ports.length > 0 ? (
        <ul className="wf-node__ports" aria-label={t("pipeline.node.ports")}>
          {ports.map((port) => (
            <li key={port} className="wf-node__port" data-port={port}>
              <span translate="no">{port}</span>
              <Handle type="source" id={port} position={Position.Right} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
