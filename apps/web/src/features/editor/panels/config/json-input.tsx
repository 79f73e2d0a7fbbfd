"use client";

import { useId, useState, type ReactNode } from "react";
import { useT } from "../../../../i18n/i18n-provider";

/** A value with no simpler editor, as JSON: kept as typed until it parses, then handed on. */
export function JsonInput({ label, value, readOnly, rows = 4, onChange, onValidity }: { label: ReactNode; value: unknown; readOnly: boolean; rows?: number; onChange: (value: unknown) => void; onValidity: (valid: boolean) => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(() => (value === undefined ? "" : JSON.stringify(value, null, 2)));
  const [error, setError] = useState<string | null>(null);

  function change(next: string) {
    setText(next);
    if (!next.trim()) {
      setError(null);
      onValidity(true);
      onChange(undefined);
      return;
    }
    try {
      const parsed: unknown = JSON.parse(next);
      setError(null);
      onValidity(true);
      onChange(parsed);
    } catch (problem) {
      setError((problem as Error).message);
      onValidity(false);
    }
  }

  return (
    <div className={error ? "field field--invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="mono" rows={rows} value={text} readOnly={readOnly} spellCheck={false} aria-invalid={error ? true : undefined} onChange={(e) => change(e.target.value)} />
      {error ? (
        <span className="field__error" role="alert">
          {t("editor.params.notJson", { message: error })}
        </span>
      ) : null}
    </div>
  );
}
