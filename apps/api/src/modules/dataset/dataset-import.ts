import { parse } from "csv-parse/sync";
import { checkRowParts, DATASET_LIMITS, MAX_REPORTED_ISSUES, parseJsonWithin, readJsonlRows, type DatasetLineIssue, type DatasetRowsRead, type DatasetRowValue } from "@weft/engine";
import type { DatasetFormat } from "./dataset.type.js";

/** Columns of a CSV import with a meaning of their own; every other column is an input node id. */
export const CSV_COLUMNS = { expected: "expected", expectedJson: "expected_json", tags: "tags" } as const;

/** The rows of an import's text: all of them, or the problems of the first bad lines (nothing is added then). */
export function readImportRows(format: DatasetFormat, text: string, maxValueDepth: number): DatasetRowsRead {
  return format === "JSONL" ? readJsonlRows(text) : readCsvRows(text, maxValueDepth);
}

/**
 * CSV through csv-parse (RFC 4180 quoting, a BOM skipped, blank lines skipped): the header names the
 * columns (CSV_COLUMNS, the rest input node ids). Parsing stops after one row more than a call may add.
 */
export function readCsvRows(text: string, maxValueDepth: number): DatasetRowsRead {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, to_line: DATASET_LIMITS.maxRowsPerCall + 2, max_record_size: DATASET_LIMITS.maxContentLength * 2 }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { ok: false, issues: [{ line, code: "VALIDATION_FAILED", message: `not CSV: ${(error as Error).message}`, path: [] }] };
  }
  const [header, ...body] = records;
  if (!header) return { ok: true, rows: [] };
  const headerIssue = checkHeader(header);
  if (headerIssue) return { ok: false, issues: [headerIssue] };
  if (body.length > DATASET_LIMITS.maxRowsPerCall) {
    return { ok: false, issues: [{ line: DATASET_LIMITS.maxRowsPerCall + 2, code: "LIMIT_EXCEEDED", message: `more than ${DATASET_LIMITS.maxRowsPerCall} rows; import them in several calls`, path: [] }] };
  }
  const rows: DatasetRowValue[] = [];
  const issues: DatasetLineIssue[] = [];
  body.forEach((cells, index) => {
    if (issues.length >= MAX_REPORTED_ISSUES) return;
    const line = index + 2;
    const read = csvRow(header, cells, maxValueDepth);
    if (read.ok) rows.push(read.row);
    else issues.push(...read.issues.map((issue) => ({ ...issue, line })));
  });
  return issues.length > 0 ? { ok: false, issues: issues.slice(0, MAX_REPORTED_ISSUES) } : { ok: true, rows };
}

function checkHeader(header: string[]): DatasetLineIssue | null {
  const seen = new Set<string>();
  for (const name of header) {
    if (name.trim() === "") return { line: 1, code: "VALIDATION_FAILED", message: "a column has no name", path: [] };
    if (seen.has(name)) return { line: 1, code: "VALIDATION_FAILED", message: `column "${name.slice(0, 80)}" is named twice`, path: [name] };
    seen.add(name);
  }
  if (seen.has(CSV_COLUMNS.expected) && seen.has(CSV_COLUMNS.expectedJson)) {
    return { line: 1, code: "VALIDATION_FAILED", message: `give ${CSV_COLUMNS.expected} or ${CSV_COLUMNS.expectedJson}, not both`, path: [] };
  }
  return null;
}

function csvRow(header: string[], cells: string[], maxValueDepth: number): ReturnType<typeof checkRowParts> {
  const inputs: { nodeId: string; content: string }[] = [];
  let expected: unknown = null;
  let tags: string[] = [];
  for (const [index, column] of header.entries()) {
    const cell = cells[index] ?? "";
    if (column === CSV_COLUMNS.expected) expected = cell === "" ? null : cell;
    else if (column === CSV_COLUMNS.tags) tags = cell.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "");
    else if (column === CSV_COLUMNS.expectedJson) {
      if (cell === "") continue;
      try {
        expected = parseJsonWithin(cell, maxValueDepth, "expected_json");
      } catch (error) {
        return { ok: false, issues: [{ code: "VALIDATION_FAILED", message: `expected_json: ${(error as Error).message}`, path: [CSV_COLUMNS.expectedJson] }] };
      }
    } else inputs.push({ nodeId: column, content: cell });
  }
  return checkRowParts(inputs, expected, tags);
}
