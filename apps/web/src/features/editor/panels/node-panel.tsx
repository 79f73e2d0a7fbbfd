"use client";

import type { ExpressionScope, WorkflowNode } from "@weft/engine";
import { useCallback, useRef } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";
import { Button } from "../../../ui/button";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import type { NodePatch, NodeSaveResult } from "../graph/use-graph-edits";
import { ConfigForm } from "./config/config-form";
import { ModelNodeForm } from "./model-node-form";
import type { KnowledgeBaseOption, ProviderOption } from "./panel-options.type";
import { TextNodeForm } from "./text-node-form";

interface NodePanelProps {
  node: WorkflowNode;
  providers: readonly ProviderOption[];
  /** The server's knowledge bases, for a config field that names one. */
  knowledgeBases: readonly KnowledgeBaseOption[];
  /** The workflow's state channels, for a node's `writes`. */
  channels: readonly string[];
  /** Where the node's CEL runs: a map body sees `item` and `index`. */
  scope?: ExpressionScope;
  readOnly: boolean;
  onSave: (patch: NodePatch) => Promise<NodeSaveResult>;
  onDelete: () => void;
  onDirtyChange?: (dirty: boolean) => void;
  onOpenBody?: (path: string) => void;
}

/**
 * The selected node: its attributes (content, or model and prompt) and its own settings (config), each
 * saved on its own. The forms remount per node so drafts never leak between nodes.
 */
export function NodePanel({ node, providers, knowledgeBases, channels, scope = "graph", readOnly, onSave, onDelete, onDirtyChange, onOpenBody }: NodePanelProps) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  const nodeTypes = useNodeTypes();
  const info = nodeTypes.get(node.type);
  const formKey = `${node.id}:${JSON.stringify(node)}`;
  // The two forms report their unsaved edits separately; the editor hears whether either has any.
  const dirty = useRef({ attributes: false, config: false });
  const report = useCallback(
    (part: "attributes" | "config") => (value: boolean) => {
      dirty.current[part] = value;
      onDirtyChange?.(dirty.current.attributes || dirty.current.config);
    },
    [onDirtyChange],
  );
  const attributesDirty = useCallback((value: boolean) => report("attributes")(value), [report]);
  const configDirty = useCallback((value: boolean) => report("config")(value), [report]);
  const hasAttributes = nodeTypes.usesModel(node.type) || nodeTypes.takes(node.type, "content");
  return (
    <div className="panel__section" data-testid="node-panel">
      <header className="panel__header">
        <h2>
          {typeLabel(node.type)} · <code>{node.id}</code>
        </h2>
        <Button size="sm" variant="danger" disabled={readOnly} onClick={onDelete}>
          {t("editor.panel.deleteNode")}
        </Button>
      </header>
      {readOnly ? <p className="hint">{t("editor.panel.readOnly")}</p> : null}
      {nodeTypes.usesModel(node.type) ? (
        <ModelNodeForm key={formKey} node={node} providers={providers} readOnly={readOnly} onSave={onSave} onDirtyChange={attributesDirty} />
      ) : hasAttributes ? (
        <TextNodeForm key={formKey} node={node} readOnly={readOnly} onSave={onSave} onDirtyChange={attributesDirty} />
      ) : null}
      {info && info.fields.length > 0 ? (
        <ConfigForm
          key={`config:${formKey}`}
          node={node}
          info={info}
          channels={channels}
          knowledgeBases={knowledgeBases}
          scope={scope}
          readOnly={readOnly}
          onSave={onSave}
          onDirtyChange={configDirty}
          {...(onOpenBody ? { onOpenBody } : {})}
        />
      ) : null}
    </div>
  );
}
