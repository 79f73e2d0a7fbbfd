"use client";

import type { ExpressionScope, JsonValue, WorkflowNode } from "@weft/engine";
import { useMemo, useState, type FormEvent } from "react";
import { useT } from "../../../../i18n/i18n-provider";
import { Button } from "../../../../ui/button";
import type { NodeTypeInfo } from "../../../node-types/node-type-catalogue";
import type { NodeSaveResult } from "../../graph/use-graph-edits";
import type { KnowledgeBaseOption } from "../panel-options.type";
import { useDirtyReport } from "../use-dirty-report";
import { SchemaField, type FieldContext } from "./schema-field";
import { invalidCelPaths } from "./cel-check";
import { shapeOf } from "./schema-shape";
import { useNodeTypeHelp } from "../../../node-types/use-node-type-help";

interface ConfigFormProps {
  node: WorkflowNode;
  info: NodeTypeInfo;
  /** The workflow's state channels, for `writes`. */
  channels: readonly string[];
  /** The server's knowledge bases, for a field that names one. */
  knowledgeBases: readonly KnowledgeBaseOption[];
  scope: ExpressionScope;
  readOnly: boolean;
  onSave: (patch: { config: Record<string, unknown> | null }) => Promise<NodeSaveResult>;
  onDirtyChange?: (dirty: boolean) => void;
  onOpenBody?: (path: string) => void;
}

type Config = Record<string, unknown>;

/**
 * A node's own fields (its config), one editor per field of its type as the API describes them; saved
 * as a whole. The server's refusals stay beside the fields they name until the next save.
 */
export function ConfigForm({ node, info, channels, knowledgeBases, scope, readOnly, onSave, onDirtyChange, onOpenBody }: ConfigFormProps) {
  const t = useT();
  const typeHelp = useNodeTypeHelp();
  const initial = useMemo<Config>(() => ({ ...(node.config ?? {}) }), [node.config]);
  const [draft, setDraft] = useState<Config>(initial);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [refusals, setRefusals] = useState<NodeSaveResult["errors"]>([]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useDirtyReport(dirty, onDirtyChange);

  const serverProblems = useMemo(
    () => new Map(refusals.filter((error) => error.field).map((error) => [error.field as string, { message: error.message, position: error.position ?? null }])),
    [refusals],
  );
  const context: FieldContext = {
    readOnly,
    scope,
    channels,
    knowledgeBases,
    serverProblems,
    onValidity: (path, valid) =>
      setInvalid((current) => {
        const next = new Set(current);
        if (valid) next.delete(path);
        else next.add(path);
        return next;
      }),
    ...(onOpenBody ? { onOpenBody } : {}),
    help: (path, english) => typeHelp.field(info.type, path, english),
  };
  const shaped = useMemo(() => info.fields.map((field) => ({ ...field, shape: shapeOf(field.schema) })), [info.fields]);
  const badCel = useMemo(() => invalidCelPaths(shaped, draft, scope), [shaped, draft, scope]);
  const blocked = invalid.size > 0 || badCel.length > 0;
  const missing = info.fields.filter((field) => field.required && (draft[field.name] === undefined || draft[field.name] === ""));
  const unplaced = refusals.filter((error) => !error.field || !info.fields.some((field) => error.field === field.name || error.field?.startsWith(`${field.name}[`) || error.field?.startsWith(`${field.name}.`)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (blocked) return;
    setBusy(true);
    const result = await onSave({ config: Object.keys(draft).length > 0 ? draft : null });
    setBusy(false);
    setRefusals(result.errors);
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="panel__form config-form" aria-label={t("pipeline.config.title")} data-testid="config-form">
      <h3>{t("pipeline.config.title")}</h3>
      {info.description ? <p className="hint">{typeHelp.description(info.type, info.description)}</p> : null}
      {unplaced.length > 0 ? (
        <ul className="notice notice--error config-form__refusals" role="alert">
          {unplaced.map((error, index) => (
            <li key={index}>
              {error.field ? <code>{error.field}</code> : null} {error.message} <span className="muted">[{error.code}]</span>
            </li>
          ))}
        </ul>
      ) : null}
      {shaped.map((field) => (
        <SchemaField
          key={field.name}
          path={field.name}
          label={field.name}
          description={field.description}
          required={field.required}
          shape={field.shape}
          value={draft[field.name]}
          onChange={(value) =>
            setDraft((current) => {
              const { [field.name]: _previous, ...rest } = current;
              return value === undefined ? rest : { ...rest, [field.name]: value as JsonValue };
            })
          }
          context={context}
        />
      ))}
      {missing.length > 0 ? <p className="hint hint--warn">{t("pipeline.config.missing", { fields: missing.map((field) => field.name).join(", ") })}</p> : null}
      <div className="row">
        <Button type="submit" variant="primary" disabled={readOnly || !dirty || blocked} busy={busy}>
          {t("pipeline.config.save")}
        </Button>
        <Button disabled={!dirty || busy} onClick={() => setDraft(initial)}>
          {t("editor.panel.reset")}
        </Button>
      </div>
    </form>
  );
}
