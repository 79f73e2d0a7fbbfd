"use client";

import { useMemo, useState } from "react";
import type { FormEvent } from "react";
import type { WorkflowNode } from "@weft/engine";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { useDirtyReport } from "./use-dirty-report";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { useModelLabel } from "../../node-types/model-labels";
import type { ProviderOption } from "./panel-options.type";
import { formatParams, parseParams } from "./params-json";

export interface ModelNodePatch {
  provider: string | null;
  model: string | null;
  prompt: string | null;
  params: Record<string, unknown> | null;
}

interface ModelNodeFormProps {
  node: WorkflowNode;
  providers: readonly ProviderOption[];
  readOnly: boolean;
  onSave: (patch: ModelNodePatch) => Promise<unknown>;
  /** Told whether the form holds unsaved edits (a redraw for a change made elsewhere would lose them). */
  onDirtyChange?: (dirty: boolean) => void;
}

/** Generation, ensemble and validation nodes: provider, model, prompt override and params. */
export function ModelNodeForm({ node, providers, readOnly, onSave, onDirtyChange }: ModelNodeFormProps) {
  const t = useT();
  const modelLabel = useModelLabel();
  const typeLabel = useNodeTypeLabel();
  const initial = useMemo(
    () => ({ provider: node.provider ?? "", model: node.model ?? "", prompt: node.prompt ?? "", params: formatParams(node.params) }),
    [node],
  );
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const parsed = parseParams(draft.params);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useDirtyReport(dirty, onDirtyChange);
  const provider = providers.find((candidate) => candidate.id === draft.provider);
  const set = (patch: Partial<typeof draft>) => setDraft((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.ok) return;
    setBusy(true);
    await onSave({
      provider: draft.provider || null,
      model: draft.model || null,
      prompt: draft.prompt.trim() ? draft.prompt : null,
      params: parsed.value,
    });
    setBusy(false);
  }

  const paramsError = parsed.ok ? null : parsed.error.kind === "notJson" ? t("editor.params.notJson", { message: parsed.error.message }) : t("editor.params.notObject");

  return (
    <form onSubmit={submit} className="panel__form">
      {providers.length === 0 ? <p className="hint hint--warn">{t("editor.panel.noProviders")}</p> : null}
      <label className="field">
        <span>{t("editor.panel.provider")}</span>
        <select name="provider" aria-label={t("editor.panel.provider")} value={draft.provider} disabled={readOnly} onChange={(e) => set({ provider: e.target.value, model: "" })}>
          <option value="">{t("editor.panel.chooseProvider")}</option>
          {providers.map((option) => (
            <option key={option.id} value={option.id}>
              {modelLabel(option.label, option.id)}
            </option>
          ))}
          {draft.provider && !provider ? <option value={draft.provider}>{t("editor.panel.notConfigured", { value: draft.provider })}</option> : null}
        </select>
      </label>
      <label className="field">
        <span>{t("editor.panel.model")}</span>
        <select name="model" aria-label={t("editor.panel.model")} value={draft.model} disabled={readOnly || !draft.provider} onChange={(e) => set({ model: e.target.value })}>
          <option value="">{t("editor.panel.chooseModel")}</option>
          {provider?.models.map((model) => (
            <option key={model.id} value={model.id}>
              {modelLabel(model.label, draft.provider, model.id)} {model.testOnly ? t("editor.panel.testOnly") : ""}
            </option>
          ))}
          {draft.model && !provider?.models.some((model) => model.id === draft.model) ? (
            <option value={draft.model}>{t("editor.panel.notConfigured", { value: draft.model })}</option>
          ) : null}
        </select>
      </label>
      <label className="field">
        <span>{t("editor.panel.promptOverride")}</span>
        <textarea name="prompt" aria-label={t("editor.panel.promptOverride")} className="mono" rows={5} value={draft.prompt} readOnly={readOnly} onChange={(e) => set({ prompt: e.target.value })} />
      </label>
      <p className="hint">{t("editor.panel.promptOverrideHelp", { type: typeLabel(node.type) })}</p>
      <label className={paramsError ? "field field--invalid" : "field"}>
        <span>{t("editor.panel.params")}</span>
        <textarea name="params" aria-label={t("editor.panel.params")} className="mono" rows={4} value={draft.params} readOnly={readOnly} placeholder='{"temperature": 0.2}' aria-invalid={paramsError ? true : undefined} onChange={(e) => set({ params: e.target.value })} />
        {paramsError ? <span className="field__error" role="alert">{paramsError}</span> : <span className="hint">{t("editor.panel.paramsHelp")}</span>}
      </label>
      <div className="row">
        <Button type="submit" variant="primary" disabled={readOnly || !dirty || !parsed.ok} busy={busy}>
          {t("editor.panel.save")}
        </Button>
        <Button disabled={!dirty || busy} onClick={() => setDraft(initial)}>
          {t("editor.panel.reset")}
        </Button>
      </div>
    </form>
  );
}
