"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import type { WorkflowNode } from "@weft/engine";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";
import { Button } from "../../../ui/button";
import { useDirtyReport } from "./use-dirty-report";

export interface TextNodePatch {
  content: string | null;
}

/** Input and output nodes: their content. */
export function TextNodeForm({ node, readOnly, onSave, onDirtyChange }: { node: WorkflowNode; readOnly: boolean; onSave: (patch: TextNodePatch) => Promise<unknown>; onDirtyChange?: (dirty: boolean) => void }) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const [content, setContent] = useState(node.content ?? "");
  const [busy, setBusy] = useState(false);
  const dirty = content !== (node.content ?? "");
  useDirtyReport(dirty, onDirtyChange);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    await onSave({ content: content === "" ? null : content });
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="panel__form">
      <label className="field">
        <span>{t("editor.panel.content")}</span>
        <textarea name="content" aria-label={t("editor.panel.content")} rows={6} value={content} readOnly={readOnly} onChange={(e) => setContent(e.target.value)} />
      </label>
      <p className="hint">{nodeTypes.isSink(node.type) ? t("editor.panel.contentOutputHelp") : t("editor.panel.contentInputHelp")}</p>
      <div className="row">
        <Button type="submit" variant="primary" disabled={readOnly || !dirty} busy={busy}>
          {t("editor.panel.save")}
        </Button>
        <Button disabled={!dirty || busy} onClick={() => setContent(node.content ?? "")}>
          {t("editor.panel.reset")}
        </Button>
      </div>
    </form>
  );
}
