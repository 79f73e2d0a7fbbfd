"use client";

import type { ExpressionScope } from "@weft/engine";
import { useId, useMemo, type ReactNode } from "react";
import { useT } from "../../../../i18n/i18n-provider";
import { celProblem, problemLine, type CelProblem } from "./cel-check";

interface CelInputProps {
  label: ReactNode;
  value: string;
  scope: ExpressionScope;
  /** A list expression (items, queries) rather than a condition. */
  list: boolean;
  readOnly: boolean;
  /** The server's EXPRESSION_INVALID for this field, shown while the text compiles here (until the next save). */
  serverProblem?: CelProblem | null;
  onChange: (value: string) => void;
}

/**
 * A CEL expression, compiled as you type with the engine's compiler: an expression that does not
 * compile shows the error at its position, a caret under the character (EXPRESSION_INVALID).
 */
export function CelInput({ label, value, scope, list, readOnly, serverProblem, onChange }: CelInputProps) {
  const t = useT();
  const id = useId();
  const problem = useMemo(() => celProblem(value, scope), [value, scope]) ?? serverProblem ?? null;
  const marked = problem ? problemLine(value, problem.position) : null;
  return (
    <div className={problem ? "field field--invalid cel" : "field cel"} data-cel={problem ? "invalid" : "valid"}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="mono cel__input"
        rows={Math.min(6, Math.max(1, value.split("\n").length))}
        value={value}
        readOnly={readOnly}
        spellCheck={false}
        placeholder={list ? "input.items" : "input.size() > 0"}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && marked ? (
        <div className="cel__problem" id={`${id}-problem`} role="alert" data-position={problem.position}>
          <pre className="cel__marker">
            {marked.line}
            {"\n"}
            {" ".repeat(marked.column)}^
          </pre>
          <span>{t("pipeline.cel.invalid", { line: marked.lineNumber, column: marked.column + 1, message: problem.message })}</span>
        </div>
      ) : null}
    </div>
  );
}
