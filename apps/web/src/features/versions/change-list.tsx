"use client";

import type { MessageKey } from "@/i18n/dictionary.type";
import { useT } from "@/i18n/i18n-provider";
import { isPositionField, type DiffStatus, type FieldChange } from "./version-diff";

/** A JSON value as the change table prints it: text as it is, anything else as JSON. */
export function printValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

export function FieldChangeTable({ fields }: { fields: readonly FieldChange[] }) {
  const t = useT();
  const cell = (value: unknown) => printValue(value) ?? t("versions.compare.absent");
  return (
    <table className="change-table">
      <thead>
        <tr>
          <th style={{ width: "28%" }}>{t("versions.compare.field")}</th>
          <th>{t("versions.compare.before")}</th>
          <th>{t("versions.compare.after")}</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((change) => (
          <tr key={change.field} data-field={change.field}>
            <td className="mono">{change.field}</td>
            <td className="change-before">
              <pre>{cell(change.from)}</pre>
            </td>
            <td className="change-after">
              <pre>{cell(change.to)}</pre>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface ChangedItem {
  id: string;
  status: DiffStatus;
  fields: readonly FieldChange[];
  /** What the item is: a node's type label, an edge's "a → b". */
  caption: string;
}

const STATUS_KEYS: Record<Exclude<DiffStatus, "same">, MessageKey> = {
  added: "versions.compare.added",
  removed: "versions.compare.removed",
  changed: "versions.compare.changed",
  moved: "versions.compare.moved",
};

/** Nodes or edges that differ, each with its changed fields; position changes only when asked for. */
export function ChangeList({ items, showLayout, onSelect }: { items: readonly ChangedItem[]; showLayout: boolean; onSelect?: (id: string) => void }) {
  const t = useT();
  const shown = items.filter((item) => item.status !== "same" && (showLayout || item.status !== "moved"));
  if (shown.length === 0) return <p className="muted">{t("versions.compare.noChanges")}</p>;
  return (
    <ul className="change-list">
      {shown.map((item) => {
        const fields = showLayout ? item.fields : item.fields.filter((field) => !isPositionField(field));
        return (
          <li key={item.id} data-change-id={item.id} data-change={item.status}>
            <div className="change-list__head">
              <span className={`badge badge--${item.status}`}>{t(STATUS_KEYS[item.status as Exclude<DiffStatus, "same">])}</span>
              {onSelect ? (
                <button type="button" className="link-button mono" onClick={() => onSelect(item.id)}>
                  {item.id}
                </button>
              ) : (
                <code>{item.id}</code>
              )}
              <span className="muted">{item.caption}</span>
            </div>
            {fields.length > 0 ? <FieldChangeTable fields={fields} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
