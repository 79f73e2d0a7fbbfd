"use client";

import type { JsonValue } from "@weft/engine";
import type { ReactNode } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";

const MAX_LINES = 3;
const MAX_TEXT = 48;

function short(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line;
}

/** A config value on one line: text as it is (shortened), lists by their length, bodies by their nodes. */
export function summariseValue(value: JsonValue, t: ReturnType<typeof useT>): string {
  if (value === null) return "null";
  if (typeof value === "string") return short(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return t("pipeline.node.items", { count: value.length });
  const nodes = (value as { nodes?: unknown }).nodes;
  if (Array.isArray(nodes)) return t("pipeline.node.body", { count: nodes.length });
  return short(JSON.stringify(value));
}

/**
 * The first few of a node's config fields, in the order its type declares them, on the card. The field
 * whose entries are ports (a switch's cases, a classify node's labels) shows as the handles instead.
 */
export function ConfigSummary({ type, config, fallback = null }: { type: string; config: Readonly<Record<string, JsonValue>> | undefined; fallback?: ReactNode }) {
  const t = useT();
  const info = useNodeTypes().get(type);
  // A field left out takes its default: shown as such, so a node with no settings of its own still says
  // what it does (a join's mode, a retrieve's intensity) instead of looking unconfigured.
  const defaults = Object.fromEntries((info?.fields ?? []).filter((field) => field.default !== null && field.default !== undefined).map((field) => [field.name, field.default as JsonValue]));
  const values: Readonly<Record<string, JsonValue>> = { ...defaults, ...(config ?? {}) };
  const order = info?.fields.map((field) => field.name) ?? Object.keys(values);
  const shown = order.filter((name) => name !== info?.portsField && values[name] !== undefined).slice(0, MAX_LINES);
  if (shown.length === 0) return fallback;
  return (
    <dl className="wf-node__config" translate="no">
      {shown.map((name) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd className={config?.[name] === undefined ? "wf-node__default" : undefined}>{summariseValue(values[name] as JsonValue, t)}</dd>
        </div>
      ))}
    </dl>
  );
}
