"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";

const DRAFT = "draft";

/** Two versions (the later one may be the draft) to compare on their own page. */
export function CompareChooser({ workflowId, numbers, from: initialFrom, to: initialTo }: { workflowId: string; numbers: readonly number[]; from?: number; to?: number | null }) {
  const t = useT();
  const router = useRouter();
  const [from, setFrom] = useState(String(initialFrom ?? numbers[1] ?? numbers[0] ?? ""));
  const [to, setTo] = useState(initialTo === undefined ? (numbers.length > 1 ? String(numbers[0]) : DRAFT) : initialTo === null ? DRAFT : String(initialTo));

  function submit(event: FormEvent) {
    event.preventDefault();
    router.push(`/workflows/${workflowId}/compare?from=${from}${to === DRAFT ? "" : `&to=${to}`}`);
  }

  return (
    <form className="filters" role="search" aria-label={t("versions.compare.title")} onSubmit={submit}>
      <label className="field">
        <span>{t("versions.compare.from")}</span>
        <select name="compare-from" value={from} onChange={(e) => setFrom(e.target.value)}>
          <VersionOptions numbers={numbers} />
        </select>
      </label>
      <label className="field">
        <span>{t("versions.compare.to")}</span>
        <select name="compare-to" value={to} onChange={(e) => setTo(e.target.value)}>
          <option value={DRAFT}>{t("versions.draft")}</option>
          <VersionOptions numbers={numbers} />
        </select>
      </label>
      <Button type="submit" variant="primary">
        {t("versions.compare.submit")}
      </Button>
    </form>
  );
}

/** One option per published version, `v3` showing and `3` as the value. */
export function VersionOptions({ numbers }: { numbers: readonly number[] }) {
  return numbers.map((number) => (
    <option key={number} value={String(number)}>
      v{number}
    </option>
  ));
}
