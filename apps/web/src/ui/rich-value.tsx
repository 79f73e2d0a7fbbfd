"use client";

import ReactMarkdown from "react-markdown";
import { useT } from "../i18n/i18n-provider";
import "./rich-value.css";

/** Values longer than this are not parsed as JSON or rendered as Markdown: shown as plain text. */
export const RICH_VALUE_LIMITS = { maxLength: 200_000, maxDepth: 20 } as const;

/** A JSON object or list held in a string (an output, a result), when it is one. */
export function parseJsonValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.length > RICH_VALUE_LIMITS.maxLength || !(trimmed.startsWith("{") || trimmed.startsWith("["))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A value a run produced, as people read it: JSON objects and lists as a collapsible tree, text as
 * Markdown (headings, lists, code, links; raw HTML is not rendered), anything too large as plain text.
 */
export function RichValue({ value, label }: { value: unknown; label?: string }) {
  if (typeof value === "string") {
    const parsed = parseJsonValue(value);
    if (parsed !== undefined && parsed !== null && typeof parsed === "object") return <JsonTree value={parsed} label={label} />;
    return <MarkdownText text={value} />;
  }
  if (value !== null && typeof value === "object") return <JsonTree value={value} label={label} />;
  return <code className="json__scalar">{JSON.stringify(value ?? null)}</code>;
}

/** Text as Markdown, without its raw HTML; too long to render as Markdown, as plain text. */
export function MarkdownText({ text }: { text: string }) {
  if (text.length > RICH_VALUE_LIMITS.maxLength) return <pre className="pre">{text}</pre>;
  return (
    <div className="markdown" data-testid="markdown">
      <ReactMarkdown skipHtml>{text}</ReactMarkdown>
    </div>
  );
}

/** A JSON value as a tree: objects and lists open at the first two levels and fold below. */
export function JsonTree({ value, label }: { value: unknown; label?: string | undefined }) {
  return (
    <div className="json" data-testid="json-tree">
      <JsonNode value={value} name={label ?? null} depth={0} />
    </div>
  );
}

function JsonNode({ value, name, depth }: { value: unknown; name: string | null; depth: number }) {
  const t = useT();
  const key = name !== null ? <span className="json__key">{name}: </span> : null;
  if (value === null || typeof value !== "object") {
    return (
      <div className="json__row">
        {key}
        <span className={`json__scalar json__scalar--${value === null ? "null" : typeof value}`}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value as Record<string, unknown>);
  const size = Array.isArray(value) ? t("common.json.items", { count: entries.length }) : t("common.json.keys", { count: entries.length });
  if (depth >= RICH_VALUE_LIMITS.maxDepth) return <div className="json__row">{key}<span className="muted">{size}</span></div>;
  return (
    <details className="json__node" open={depth < 2}>
      <summary>
        {key}
        <span className="muted">
          {Array.isArray(value) ? "[" : "{"} {size} {Array.isArray(value) ? "]" : "}"}
        </span>
      </summary>
      <div className="json__children">
        {entries.map(([entryKey, entry]) => (
          <JsonNode key={entryKey} value={entry} name={entryKey} depth={depth + 1} />
        ))}
      </div>
    </details>
  );
}
