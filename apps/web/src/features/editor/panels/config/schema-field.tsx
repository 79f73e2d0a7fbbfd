"use client";

import type { ExpressionScope } from "@weft/engine";
import { useId, type ReactNode } from "react";
import { useT } from "../../../../i18n/i18n-provider";
import { Button } from "../../../../ui/button";
import { CelInput } from "./cel-input";
import type { CelProblem } from "./cel-check";
import type { KnowledgeBaseOption } from "../panel-options.type";
import { JsonInput } from "./json-input";
import { KnowledgeBaseInput } from "./knowledge-base-input";
import { emptyValue, type FieldShape } from "./schema-shape";

/** What every field of one form shares: where its CEL runs, what it may name, what the server said. */
export interface FieldContext {
  readOnly: boolean;
  scope: ExpressionScope;
  /** The workflow's state channels, for `writes`. */
  channels: readonly string[];
  /** The server's knowledge bases, for a field that names one (stored by name). */
  knowledgeBases: readonly KnowledgeBaseOption[];
  /** The server's refusals by field path (`cases[1].when`): message and, for CEL, the position. */
  serverProblems: ReadonlyMap<string, { message: string; position: number | null }>;
  /** A JSON field that does not parse (yet) keeps the form from saving. */
  onValidity: (path: string, valid: boolean) => void;
  /** Opens a map's or subgraph's body on its own canvas. */
  onOpenBody?: (path: string) => void;
  /** A field's help in the UI's language, by its path (`cases[0].when`), from the API's English. */
  help?: (path: string, english: string) => string;
}

interface SchemaFieldProps {
  path: string;
  label: string;
  description?: string;
  required?: boolean;
  shape: FieldShape;
  value: unknown;
  onChange: (value: unknown) => void;
  context: FieldContext;
}

const asText = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value));

/** One config value with the editor its schema calls for (schema-shape.ts); lists and records recurse. */
export function SchemaField({ path, label, description, required = false, shape, value, onChange, context }: SchemaFieldProps) {
  const t = useT();
  const id = useId();
  const server = context.serverProblems.get(path) ?? null;
  // A field's name is the document's key: shown as it is in every language.
  const title = (
    <>
      <span translate="no">{label}</span>
      {required ? " *" : ""}
    </>
  );
  const help = description ? <span className="hint">{context.help ? context.help(path, description) : description}</span> : null;
  const serverLine = server && shape.kind !== "cel" ? <span className="field__error" role="alert">{server.message}</span> : null;
  const text = (next: string) => onChange(next === "" ? undefined : next);

  switch (shape.kind) {
    case "cel": {
      const problem: CelProblem | null = server ? { message: server.message, position: server.position ?? 0 } : null;
      return (
        <div data-field={path}>
          <CelInput label={title} value={asText(value)} scope={context.scope} list={shape.list} readOnly={context.readOnly} serverProblem={problem} onChange={text} />
          {help}
        </div>
      );
    }
    case "template":
      return (
        <div className="field" data-field={path}>
          <label htmlFor={id}>{title}</label>
          <textarea id={id} className="mono" rows={5} value={asText(value)} readOnly={context.readOnly} onChange={(e) => text(e.target.value)} />
          {help}
          {serverLine}
        </div>
      );
    case "channel":
      return (
        <div className="field" data-field={path}>
          <label htmlFor={id}>{title}</label>
          <select id={id} value={asText(value)} disabled={context.readOnly} onChange={(e) => text(e.target.value)}>
            <option value="">{t("pipeline.field.noChannel")}</option>
            {[...new Set([...context.channels, ...(asText(value) ? [asText(value)] : [])])].map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
          {help}
          {serverLine}
        </div>
      );
    case "knowledgeBase":
      return (
        <div className="field" data-field={path}>
          <label htmlFor={id}>{title}</label>
          <KnowledgeBaseInput id={id} value={asText(value)} knowledgeBases={context.knowledgeBases} readOnly={context.readOnly} onChange={text} />
          {help}
          {serverLine}
        </div>
      );
    case "choice":
      return (
        <div className="field" data-field={path}>
          <label htmlFor={id}>{title}</label>
          <select id={id} value={asText(value)} disabled={context.readOnly} onChange={(e) => text(e.target.value)}>
            <option value="">{t("pipeline.field.default")}</option>
            {shape.values.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
          {help}
          {serverLine}
        </div>
      );
    case "text":
      return (
        <div className="field" data-field={path}>
          <label htmlFor={id}>{title}</label>
          <input id={id} value={asText(value)} maxLength={shape.maxLength ?? undefined} readOnly={context.readOnly} onChange={(e) => text(e.target.value)} />
          {help}
          {serverLine}
        </div>
      );
    case "number":
      return (
        <div className="field" data-field={path}>
          <label htmlFor={id}>{title}</label>
          <input
            id={id}
            type="number"
            step={shape.integer ? 1 : "any"}
            min={shape.minimum ?? undefined}
            max={shape.maximum ?? undefined}
            value={typeof value === "number" ? value : ""}
            readOnly={context.readOnly}
            onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
          />
          {help}
          {serverLine}
        </div>
      );
    case "boolean":
      return (
        <div className="field" data-field={path}>
          <label className="check">
            <input type="checkbox" checked={value === true} disabled={context.readOnly} onChange={(e) => onChange(e.target.checked ? true : undefined)} />
            {title}
          </label>
          {help}
          {serverLine}
        </div>
      );
    case "list":
      return <ListField path={path} title={title} help={help} serverLine={serverLine} shape={shape} value={value} onChange={onChange} context={context} />;
    case "record":
      return (
        <fieldset className="field record" data-field={path}>
          <legend>{title}</legend>
          {help}
          <RecordFields path={path} fields={shape.fields} value={value} onChange={onChange} context={context} />
          {serverLine}
        </fieldset>
      );
    case "graph":
      return (
        <div className="field" data-field={path}>
          <span className="field__label">{title}</span>
          {help}
          <Button size="sm" onClick={() => context.onOpenBody?.(path)} disabled={!context.onOpenBody}>
            {t("pipeline.field.openBody")}
          </Button>
          {serverLine}
        </div>
      );
    case "json":
      return (
        <div data-field={path}>
          <JsonInput label={title} value={value} readOnly={context.readOnly} onChange={onChange} onValidity={(valid) => context.onValidity(path, valid)} />
          {help}
          {serverLine}
        </div>
      );
  }
}

function RecordFields({ path, fields, value, onChange, context }: { path: string; fields: Extract<FieldShape, { kind: "record" }>["fields"]; value: unknown; onChange: (value: unknown) => void; context: FieldContext }) {
  const record = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const set = (name: string, next: unknown) => {
    const { [name]: _previous, ...rest } = record;
    const updated = next === undefined ? rest : { ...rest, [name]: next };
    onChange(Object.keys(updated).length > 0 ? updated : undefined);
  };
  return (
    <>
      {fields.map((field) => (
        <SchemaField
          key={field.name}
          path={`${path}.${field.name}`}
          label={field.name}
          description={field.description}
          required={field.required}
          shape={field.shape}
          value={record[field.name]}
          onChange={(next) => set(field.name, next)}
          context={context}
        />
      ))}
    </>
  );
}

interface ListFieldProps {
  path: string;
  title: ReactNode;
  help: React.ReactNode;
  serverLine: React.ReactNode;
  shape: Extract<FieldShape, { kind: "list" }>;
  value: unknown;
  onChange: (value: unknown) => void;
  context: FieldContext;
}

/** Rows of one editor each (a switch's cases, a classify node's labels), added and removed in place. */
function ListField({ path, title, help, serverLine, shape, value, onChange, context }: ListFieldProps) {
  const t = useT();
  const items = Array.isArray(value) ? value : [];
  const set = (next: unknown[]) => onChange(next.length > 0 ? next : undefined);
  const full = shape.maxItems !== null && items.length >= shape.maxItems;
  return (
    <fieldset className="field list" data-field={path}>
      <legend>{title}</legend>
      {help}
      <ol className="list__items">
        {items.map((item, index) => (
          <li key={index} className="list__item" data-index={index}>
            <div className="list__editor">
              {shape.item.kind === "record" ? (
                <RecordFields path={`${path}[${index}]`} fields={shape.item.fields} value={item} onChange={(next) => set(items.map((old, i) => (i === index ? (next ?? {}) : old)))} context={context} />
              ) : (
                <SchemaField path={`${path}[${index}]`} label={`${index + 1}`} shape={shape.item} value={item} onChange={(next) => set(items.map((old, i) => (i === index ? (next ?? "") : old)))} context={context} />
              )}
            </div>
            <Button size="sm" variant="ghost" disabled={context.readOnly} aria-label={t("pipeline.field.remove", { index: index + 1 })} onClick={() => set(items.filter((_, i) => i !== index))}>
              ✕
            </Button>
          </li>
        ))}
      </ol>
      <Button size="sm" disabled={context.readOnly || full} onClick={() => set([...items, emptyValue(shape.item)])}>
        + {t("pipeline.field.add")}
      </Button>
      {serverLine}
    </fieldset>
  );
}
