import { compileExpression, type ExpressionScope } from "@weft/engine";
import type { FieldShape } from "./schema-shape";

export interface CelProblem {
  message: string;
  /** 0-based character offset of the error, as EXPRESSION_INVALID reports it. */
  position: number;
}

/** The engine's own CEL compiler (the server's): null when the expression compiles, else why and where. */
export function celProblem(source: string, scope: ExpressionScope): CelProblem | null {
  if (!source.trim()) return null;
  const result = compileExpression(source, scope);
  return result.ok ? null : { message: result.message, position: Math.max(0, Math.min(result.position, source.length)) };
}

/** The line of the expression the error is on, and the column under which to put the marker. */
export function problemLine(source: string, position: number): { line: string; column: number; lineNumber: number } {
  const before = source.slice(0, position);
  const lineNumber = before.split("\n").length;
  const start = before.lastIndexOf("\n") + 1;
  const end = source.indexOf("\n", position);
  return { line: source.slice(start, end === -1 ? source.length : end), column: position - start, lineNumber };
}

/** Paths of the CEL values in a config (cases[0].when, items, …) that do not compile. */
export function invalidCelPaths(fields: readonly { name: string; shape: FieldShape }[], config: Readonly<Record<string, unknown>>, scope: ExpressionScope): string[] {
  const found: string[] = [];
  const visit = (shape: FieldShape, value: unknown, path: string) => {
    if (value === undefined || value === null) return;
    if (shape.kind === "cel" && typeof value === "string" && celProblem(value, scope)) found.push(path);
    if (shape.kind === "list" && Array.isArray(value)) value.forEach((item, index) => visit(shape.item, item, `${path}[${index}]`));
    if (shape.kind === "record" && typeof value === "object") {
      for (const field of shape.fields) visit(field.shape, (value as Record<string, unknown>)[field.name], `${path}.${field.name}`);
    }
  };
  for (const field of fields) visit(field.shape, config[field.name], field.name);
  return found;
}
