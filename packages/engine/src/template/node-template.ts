import type { RunLimits } from "../limits/run-limits.js";
import { jsonText, type JsonValue } from "../model/json-value.js";
import { RenderBudget } from "./render-budget.js";

/**
 * Templates of the pipeline node types (`llm` prompts, `template` nodes; SPEC-V2 §2). Every placeholder
 * is substituted in ONE pass, so text inside a value that looks like a placeholder stays literal:
 * `{input}`, `{input.<sourceNodeId>}`, `{state.<channel>}`, `{item}`, `{index}`, `{feedback}`,
 * `{iteration}`, and v1's `{input_data}`, `{context}`, `{output_format}`. `{state.<channel>}` and
 * `{item}` may go on into their value with field names and list indices (`{state.plan.rewrites.0}`,
 * `{item.query}`). An `http` tool's request also sees the call's arguments as `{args}` and
 * `{args.<name>}` (SPEC-V3 §3); elsewhere those stay as written. Anything else in braces is left as
 * written (JSON in a prompt needs no escaping).
 */
export interface TemplateValues {
  /** The node's input values in edge order. */
  values: readonly JsonValue[];
  inputsBySource: Readonly<Record<string, JsonValue>>;
  state: Readonly<Record<string, JsonValue>>;
  item?: JsonValue;
  index?: number;
  feedback: string;
  iteration: number;
  context: string | null;
  outputFormat: string;
  /** An `http` tool's call arguments (`{args.<name>}`); absent elsewhere, where `{args…}` is left as written. */
  args?: Readonly<Record<string, JsonValue>>;
  /** The longest text the rendering may make (a node output's limit): rendering stops with OUTPUT_TOO_LARGE past it. */
  maxLength?: number;
}

export interface RenderedTemplate {
  text: string;
  /** Placeholders that had nothing to put in them (`state.answer`, `input.x`, `item`, …), in order of first use. */
  empty: string[];
}

const PLACEHOLDER = /\{(input(?:\.[^{}\s]+)?|state\.[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*|item(?:\.[A-Za-z0-9_]+)*|args(?:\.[A-Za-z0-9_]+)*|index|feedback|iteration|input_data|context|output_format)\}/g;

/**
 * `text` mode puts values in as text (strings as they are, other values as JSON); `json` mode puts every
 * value in as JSON (strings quoted and escaped), so `{"question": {item}}` yields valid JSON; `url` mode
 * puts each value's text in percent-encoded (encodeURIComponent), so a value stays inside the part of
 * the URL it was put in (`x&admin=1#`, `../admin` add no parameter and leave no path segment).
 */
export function renderTemplate(template: string, values: TemplateValues, mode: "text" | "json" | "url" = "text"): RenderedTemplate {
  const empty = new Set<string>();
  const encode = mode === "json" ? (value: JsonValue) => JSON.stringify(value) : mode === "url" ? urlComponent : jsonText;
  const budget = new RenderBudget(template.length, values.maxLength);
  const text = template.replace(PLACEHOLDER, (match, name: string) => {
    if (values.args === undefined && isArgsPlaceholder(name)) return match;
    const value = lookup(name, values);
    if (value === undefined || value === "") {
      if (name !== "feedback") empty.add(name);
      return mode === "json" ? (value === undefined ? "null" : '""') : "";
    }
    return budget.take(encode(value), match.length);
  });
  return { text, empty: [...empty] };
}

/** A value's text percent-encoded; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD, as a TextEncoder would send it. */
function urlComponent(value: JsonValue): string {
  return encodeURIComponent(jsonText(value).replace(/\p{Cs}/gu, "\uFFFD"));
}

/** Whether a template is one placeholder and nothing else (`{input}`, `{args.url}`). */
export function isSinglePlaceholder(template: string): boolean {
  const match = new RegExp(PLACEHOLDER.source).exec(template);
  return match !== null && match[0] === template;
}

function lookup(name: string, values: TemplateValues): JsonValue | undefined {
  if (name === "input" || name === "input_data") return joinValues(values.values);
  if (name.startsWith("input.")) return values.inputsBySource[name.slice("input.".length)];
  if (name.startsWith("state.")) {
    const [channel, ...path] = name.slice("state.".length).split(".");
    return within(values.state[channel!], path);
  }
  if (name.startsWith("item")) return within(values.item, name.split(".").slice(1));
  if (isArgsPlaceholder(name)) return within(values.args as JsonValue | undefined, name.split(".").slice(1));
  switch (name) {
    case "index":
      return values.index;
    case "feedback":
      return values.feedback;
    case "iteration":
      return values.iteration;
    case "context":
      return values.context ?? undefined;
    case "output_format":
      return values.outputFormat;
    default:
      return undefined;
  }
}

function isArgsPlaceholder(name: string): boolean {
  return name === "args" || name.startsWith("args.");
}

/** A field path into a value: object keys by name, list items by index; undefined where the path leads nowhere. */
function within(value: JsonValue | undefined, path: readonly string[]): JsonValue | undefined {
  let current = value;
  for (const step of path) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (current !== null && typeof current === "object" && !Array.isArray(current) && Object.hasOwn(current, step)) current = current[step];
    else return undefined;
  }
  return current;
}

/** One input: the value itself. Several: their texts joined by a blank line, in edge order. */
export function joinValues(values: readonly JsonValue[]): JsonValue | undefined {
  if (values.length === 0) return undefined;
  if (values.length === 1) return values[0];
  return values.map(jsonText).join("\n\n");
}

/** What a node's context offers to its templates; `context` is the formatted retrieval, if any. */
export function templateValuesOf(
  node: Pick<TemplateValues, "values" | "inputsBySource" | "state" | "item" | "index" | "feedback" | "iteration"> & { limits?: Pick<RunLimits, "maxNodeOutputBytes"> },
  outputFormat: string,
  context: string | null,
): TemplateValues {
  return {
    values: node.values,
    inputsBySource: node.inputsBySource,
    state: node.state,
    ...(node.item === undefined ? {} : { item: node.item }),
    ...(node.index === undefined ? {} : { index: node.index }),
    feedback: node.feedback,
    iteration: node.iteration,
    context,
    outputFormat,
    ...(node.limits ? { maxLength: node.limits.maxNodeOutputBytes } : {}),
  };
}

/** The `{state.<channel>}` placeholders of a template, for STATE_UNKNOWN_CHANNEL. */
export function stateReferences(template: string): string[] {
  if (!template.includes("{state.")) return [];
  const channels = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (name.startsWith("state.")) channels.add(name.slice("state.".length).split(".")[0]!);
  }
  return [...channels];
}
