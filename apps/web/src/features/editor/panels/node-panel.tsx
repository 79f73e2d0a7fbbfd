"use client";

import type { WorkflowNode } from "@weft/engine";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";
import { Button } from "../../../ui/button";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import type { NodePatch } from "../graph/use-graph-edits";
import { ModelNodeForm } from "./model-node-form";
import type { ProviderOption } from "./panel-options.type";
import { TextNodeForm } from "./text-node-form";

interface NodePanelProps {
  node: WorkflowNode;
  providers: readonly ProviderOption[];
  readOnly: boolean;
  onSave: (patch: NodePatch) => Promise<boolean>;
  onDelete: () => void;
  onDirtyChange?: (dirty: boolean) => void;
}

/** The selected node's attributes; the form remounts per node so drafts never leak between nodes. */
export function NodePanel({ node, providers, readOnly, onSave, onDelete, onDirtyChange }: NodePanelProps) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  const usesModel = useNodeTypes().usesModel(node.type);
  const formKey = `${node.id}:${JSON.stringify(node)}`;
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
      {usesModel ? (
        <ModelNodeForm key={formKey} node={node} providers={providers} readOnly={readOnly} onSave={onSave} onDirtyChange={onDirtyChange} />
      ) : (
        <TextNodeForm key={formKey} node={node} readOnly={readOnly} onSave={onSave} onDirtyChange={onDirtyChange} />
      )}
    </div>
  );
}
