"use client";

import Link from "next/link";
import { useT } from "../../../../i18n/i18n-provider";
import type { KnowledgeBaseOption } from "../panel-options.type";

interface KnowledgeBaseInputProps {
  id: string;
  /** The stored name ("" when the field is unset: the run's knowledge base). */
  value: string;
  knowledgeBases: readonly KnowledgeBaseOption[];
  readOnly: boolean;
  onChange: (name: string) => void;
}

/**
 * A config field that names a knowledge base (`x-weft-kind: knowledgeBase`): the server's knowledge
 * bases by name, which is what the engine looks them up by. A stored name the server does not know stays
 * selected and says so, rather than being dropped on the next save.
 */
export function KnowledgeBaseInput({ id, value, knowledgeBases, readOnly, onChange }: KnowledgeBaseInputProps) {
  const t = useT();
  const known = value === "" || knowledgeBases.some((kb) => kb.name === value);
  return (
    <>
      <select id={id} value={value} disabled={readOnly} data-unknown={known ? undefined : "true"} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t("pipeline.field.runKnowledgeBase")}</option>
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
