"use client";

import Link from "next/link";
import { useT } from "../../../../i18n/i18n-provider";
import type { KnowledgeBaseOption } from "../panel-options.type";

interface KnowledgeBaseInputProps {
  id?: string;
  name?: string;
  ariaLabel?: string;
  /** The first choice, stored as "": what an unset field means where this input sits. */
  noneLabel?: string;
  /** The stored name ("" when the field is unset: the run's knowledge base). */
  value: string;
  knowledgeBases: readonly KnowledgeBaseOption[];
  readOnly: boolean;
  onChange: (name: string) => void;
}

/**
 * A choice of knowledge base — a config field that names one (`x-weft-kind: knowledgeBase`), or the
 * workflow's default: the server's knowledge bases by name, which is what the engine looks them up by. A
 * stored name the server does not know stays selected and says so, rather than being dropped on the
 * next save.
 */
export function KnowledgeBaseInput({ id, name, ariaLabel, noneLabel, value, knowledgeBases, readOnly, onChange }: KnowledgeBaseInputProps) {
  const t = useT();
  const known = value === "" || knowledgeBases.some((kb) => kb.name === value);
  return (
    <>
      <select id={id} name={name} aria-label={ariaLabel} value={value} disabled={readOnly} data-unknown={known ? undefined : "true"} onChange={(e) => onChange(e.target.value)}>
        <option value="">{noneLabel ?? t("pipeline.field.runKnowledgeBase")}</option>
        {knowledgeBases.map((kb) => (
          <option key={kb.id} value={kb.name}>
            {kb.name}
          </option>
        ))}
        {known ? null : <option value={value}>{t("pipeline.field.unknownKnowledgeBase", { value })}</option>}
      </select>
      {knowledgeBases.length === 0 ? (
        <p className="hint">
          {t("pipeline.field.noKnowledgeBases")} <Link href="/knowledge-bases">{t("pipeline.field.createKnowledgeBase")}</Link>
        </p>
      ) : null}
    </>
  );
}
