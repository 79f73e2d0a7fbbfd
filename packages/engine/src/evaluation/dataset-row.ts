import { z } from "zod";
import { measureJson } from "../limits/json-measure.js";
import { jsonTextDepth } from "../limits/json-text-depth.js";
import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import type { JsonValue } from "../model/json-value.js";
import { WORKFLOW_DOCUMENT_LIMITS } from "../model/workflow-document.limits.js";

/**
 * One case of a dataset (SPEC-V3 §4): the content of each input node the run starts with, what the run
 * should answer (`expected`: text compared as text, JSON as JSON; null when only the scorers' own
 * settings judge), and tags to filter by.
 */
export interface DatasetRowValue {
  inputs: DatasetRowInput[];
  expected: JsonValue;
  tags: string[];
}

export interface DatasetRowInput {
  nodeId: string;
  content: string;
}

/** What a dataset accepts. Every limit is refused with LIMIT_EXCEEDED and the row's path, never cut. */
export const DATASET_LIMITS = {
  /** Rows in one addDatasetRows or importDatasetRows call (SPEC-V3 §4). */
  maxRowsPerCall: 10_000,
  /** Rows one dataset holds. */
  maxRows: 100_000,
  /** Input contents of one row. */
  maxInputs: 50,
  maxNodeIdLength: WORKFLOW_DOCUMENT_LIMITS.maxIdLength,
  /** One input's content, as a run input's. */
  maxContentLength: WORKFLOW_DOCUMENT_LIMITS.maxContentLength,
  /** `expected` as JSON (UTF-8 bytes). */
  maxExpectedBytes: 256 * 1024,
  maxExpectedDepth: DEFAULT_RUN_LIMITS.maxValueDepth,
  maxTags: 20,
  maxTagLength: 64,
  maxNameLength: 200,
  maxDescriptionLength: 10_000,
} as const;

export type DatasetIssueCode = "VALIDATION_FAILED" | "LIMIT_EXCEEDED";

/** Why a row (or a line of an import) was refused: `path` inside the row (`["inputs", "question"]`). */
export interface DatasetIssue {
  code: DatasetIssueCode;
  message: string;
  path: (string | number)[];
}

export type DatasetRowCheck = { ok: true; row: DatasetRowValue } | { ok: false; issues: DatasetIssue[] };

const inputList = z.array(z.object({ nodeId: z.string(), content: z.string() }).strict());
const inputMap = z.record(z.string(), z.string());

/**
 * A row as JSONL lines and the API take it: `inputs` as a list of `{nodeId, content}` or a map from
 * node id to content, `expected` any JSON (absent: null), `tags` a list of strings.
 */
const rowShape = z
  .object({
    inputs: z.union([inputList, inputMap]),
    expected: z.unknown().optional(),
    tags: z.array(z.string()).optional(),
  })
  .strict();

/** Checks one row's shape and limits; every problem at once. */
export function checkDatasetRow(value: unknown): DatasetRowCheck {
  const parsed = rowShape.safeParse(value);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((issue) => ({ code: "VALIDATION_FAILED", message: issue.message, path: issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)) })) };
  }
  const inputs = Array.isArray(parsed.data.inputs)
    ? parsed.data.inputs
    : Object.entries(parsed.data.inputs).map(([nodeId, content]) => ({ nodeId, content }));
  return checkRowParts(inputs, parsed.data.expected === undefined ? null : parsed.data.expected, parsed.data.tags ?? []);
}

/** The limits of a row's parts, for rows built from CSV cells and GraphQL inputs as well. */
export function checkRowParts(inputs: readonly DatasetRowInput[], expected: unknown, tags: readonly string[]): DatasetRowCheck {
  const issues: DatasetIssue[] = [];
  const limit = (message: string, path: (string | number)[]) => issues.push({ code: "LIMIT_EXCEEDED", message, path });
  if (inputs.length === 0) issues.push({ code: "VALIDATION_FAILED", message: "a row needs at least one input", path: ["inputs"] });
  if (inputs.length > DATASET_LIMITS.maxInputs) limit(`${inputs.length} inputs; the limit is ${DATASET_LIMITS.maxInputs}`, ["inputs"]);
  const seen = new Set<string>();
  inputs.forEach(({ nodeId, content }, index) => {
    if (nodeId.trim() === "") issues.push({ code: "VALIDATION_FAILED", message: "a node id cannot be empty", path: ["inputs", index, "nodeId"] });
    if (nodeId.length > DATASET_LIMITS.maxNodeIdLength) limit(`the node id is longer than ${DATASET_LIMITS.maxNodeIdLength} characters`, ["inputs", index, "nodeId"]);
    if (seen.has(nodeId)) issues.push({ code: "VALIDATION_FAILED", message: `node "${nodeId.slice(0, 80)}" is given twice`, path: ["inputs", index, "nodeId"] });
    seen.add(nodeId);
    if (content.length > DATASET_LIMITS.maxContentLength) limit(`the content is ${content.length} characters; the limit is ${DATASET_LIMITS.maxContentLength}`, ["inputs", index, "content"]);
  });
  const measured = measureJson(expected, { maxDepth: DATASET_LIMITS.maxExpectedDepth, maxBytes: DATASET_LIMITS.maxExpectedBytes });
  if (measured.problem === "depth") limit(`expected nests deeper than ${DATASET_LIMITS.maxExpectedDepth} levels`, ["expected"]);
  if (measured.problem === "bytes") limit(`expected is larger than ${DATASET_LIMITS.maxExpectedBytes} bytes as JSON`, ["expected"]);
  if (measured.problem === "notJson") issues.push({ code: "VALIDATION_FAILED", message: "expected must be a JSON value", path: ["expected"] });
  if (tags.length > DATASET_LIMITS.maxTags) limit(`${tags.length} tags; the limit is ${DATASET_LIMITS.maxTags}`, ["tags"]);
  tags.forEach((tag, index) => {
    if (tag.length > DATASET_LIMITS.maxTagLength) limit(`a tag is longer than ${DATASET_LIMITS.maxTagLength} characters`, ["tags", index]);
  });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, row: { inputs: inputs.map(({ nodeId, content }) => ({ nodeId, content })), expected: expected as JsonValue, tags: [...new Set(tags)] } };
}

/** A line of an import, 1-based, and what is wrong with it. */
export interface DatasetLineIssue extends DatasetIssue {
  line: number;
}

export type DatasetRowsRead = { ok: true; rows: DatasetRowValue[] } | { ok: false; issues: DatasetLineIssue[] };

/** At most this many problems are reported for one import; the rest are counted in the last one. */
export const MAX_REPORTED_ISSUES = 20;

/**
 * JSONL: one row object per line, blank lines ignored. A line's JSON depth is read from its text before
 * it is parsed (a hostile line 5,000 levels deep costs no recursion). All or nothing: any bad line
 * refuses the import, with up to MAX_REPORTED_ISSUES problems and their line numbers.
 */
export function readJsonlRows(text: string): DatasetRowsRead {
  const rows: DatasetRowValue[] = [];
  const issues: DatasetLineIssue[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length && issues.length < MAX_REPORTED_ISSUES; index += 1) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    if (rows.length + issues.length >= DATASET_LIMITS.maxRowsPerCall) {
      issues.push({ line: index + 1, code: "LIMIT_EXCEEDED", message: `more than ${DATASET_LIMITS.maxRowsPerCall} rows; import them in several calls`, path: [] });
      break;
    }
    const value = parseLine(line);
    if (!value.ok) {
      issues.push({ line: index + 1, code: "VALIDATION_FAILED", message: value.message, path: [] });
      continue;
    }
    const checked = checkDatasetRow(value.value);
    if (checked.ok) rows.push(checked.row);
    else issues.push(...checked.issues.map((issue) => ({ ...issue, line: index + 1 })));
  }
  if (issues.length > 0) return { ok: false, issues: issues.slice(0, MAX_REPORTED_ISSUES) };
  return { ok: true, rows };
}

function parseLine(line: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const maxDepth = DATASET_LIMITS.maxExpectedDepth + 2;
  if (jsonTextDepth(line, maxDepth) > maxDepth) return { ok: false, message: `the line nests deeper than ${DATASET_LIMITS.maxExpectedDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (error) {
    return { ok: false, message: `not JSON: ${(error as Error).message}` };
  }
}
