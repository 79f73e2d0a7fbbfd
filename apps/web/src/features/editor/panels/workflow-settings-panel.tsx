"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import type { MessageKey } from "../../../i18n/dictionary.type";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";
import { Button } from "../../../ui/button";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import type { Intensity, KnowledgeBaseOption } from "./panel-options.type";
import { INTENSITIES } from "./panel-options.type";
import type { WorkflowSettingsDraft } from "./workflow-settings.type";
import { sameSettings } from "./workflow-settings.type";
import { KnowledgeBaseInput } from "./config/knowledge-base-input";


interface WorkflowSettingsPanelProps {
  saved: WorkflowSettingsDraft;
  draft: WorkflowSettingsDraft;
  knowledgeBases: readonly KnowledgeBaseOption[];
  readOnly: boolean;
  onChange: (draft: WorkflowSettingsDraft) => void;
  onSave: (draft: WorkflowSettingsDraft) => Promise<boolean>;
}

/** Name, prompts per node type, output format, default knowledge base and intensity. */
export function WorkflowSettingsPanel({ saved, draft, knowledgeBases, readOnly, onChange, onSave }: WorkflowSettingsPanelProps) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  // Node types that take a prompt, in registry order.
  const promptTypes = useNodeTypes()
    .types.filter((type) => type.usesModel)
    .map((type) => type.type);
  const [busy, setBusy] = useState(false);
  const dirty = !sameSettings(saved, draft);
  const set = (patch: Partial<WorkflowSettingsDraft>) => onChange({ ...draft, ...patch });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    await onSave(draft);
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="panel__form" aria-label={t("editor.panel.workflow")}>
      <label className="field">
        <span>{t("editor.panel.name")}</span>
        <input type="text" name="name" aria-label={t("editor.panel.name")} value={draft.name} readOnly={readOnly} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label className="field">
        <span>{t("editor.panel.description")}</span>
        <input type="text" name="description" aria-label={t("editor.panel.description")} value={draft.description} readOnly={readOnly} onChange={(e) => set({ description: e.target.value })} />
      </label>
      <div className="row row--fields">
        <label className="field">
          <span>{t("editor.panel.knowledgeBase")}</span>
          <KnowledgeBaseInput
            name="knowledgeBase"
            ariaLabel={t("editor.panel.knowledgeBase")}
            noneLabel={t("editor.panel.noKnowledgeBase")}
            value={draft.knowledgeBase ?? ""}
            knowledgeBases={knowledgeBases}
            readOnly={readOnly}
            onChange={(name) => set({ knowledgeBase: name || null })}
          />
        </label>
        <label className="field">
          <span>{t("editor.panel.intensity")}</span>
          <select name="intensity" aria-label={t("editor.panel.intensity")} value={draft.intensity} disabled={readOnly} onChange={(e) => set({ intensity: e.target.value as Intensity })}>
            {INTENSITIES.map((level) => (
              <option key={level} value={level}>
                {t(`editor.intensity.${level}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <h3>{t("editor.panel.prompts")}</h3>
      {promptTypes.map((type) => (
        <label key={type} className="field">
          <span>{t("editor.panel.promptFor", { type: typeLabel(type) })}</span>
          <textarea
            name={`prompt-${type}`}
            aria-label={t("editor.panel.promptFor", { type: typeLabel(type) })}
            className="mono"
            rows={5}
            value={draft.prompts[type] ?? ""}
            readOnly={readOnly}
            onChange={(e) => set({ prompts: { ...draft.prompts, [type]: e.target.value } })}
          />
        </label>
      ))}
      <label className="field">
        <span>{t("editor.panel.outputFormat")}</span>
        <textarea name="outputFormat" aria-label={t("editor.panel.outputFormat")} className="mono" rows={3} value={draft.outputFormat} readOnly={readOnly} onChange={(e) => set({ outputFormat: e.target.value })} />
      </label>
      <div className="row">
        <Button type="submit" variant="primary" disabled={readOnly || !dirty || !draft.name.trim()} busy={busy}>
          {t("editor.panel.saveWorkflow")}
        </Button>
        <Button disabled={!dirty || busy} onClick={() => onChange(saved)}>
          {t("editor.panel.reset")}
        </Button>
      </div>
    </form>
  );
}
