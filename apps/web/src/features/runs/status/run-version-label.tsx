"use client";

import Link from "next/link";
import { useT } from "@/i18n/i18n-provider";

/** What a run executed: a published version (linked to the workflow's versions) or the draft. */
export function RunVersionLabel({ workflowId, version }: { workflowId: string; version: number | null }) {
  const t = useT();
  if (version === null) return <span className="badge" data-version="draft">{t("versions.run.draft")}</span>;
  return (
    <Link href={`/workflows/${workflowId}/versions`} className="mono" data-version={version}>
      v{version}
    </Link>
  );
}
