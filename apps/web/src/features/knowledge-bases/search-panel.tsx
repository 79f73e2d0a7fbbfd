"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useClient } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useDescribeError } from "@/ui/state-views";
import { SearchKnowledgeBaseQuery } from "./knowledge-bases.operations";

const INTENSITIES = ["LOW", "MEDIUM", "HIGH"] as const;
type Intensity = (typeof INTENSITIES)[number];

interface Hit {
  chunkId: string;
  text: string;
  score: number;
  label: string;
}

/** Runs searchKnowledgeBase as a model node would, to check what a query retrieves. */
export function SearchPanel({ name }: { name: string }) {
  const t = useT();
  const client = useClient();
  const describe = useDescribeError();
  const [query, setQuery] = useState("");
  const [intensity, setIntensity] = useState<Intensity>("LOW");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ hits: Hit[]; store: string; topK: number } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const response = await client
      .query(SearchKnowledgeBaseQuery, { input: { name, query: query.trim(), intensity } }, { requestPolicy: "network-only" })
      .toPromise();
    setBusy(false);
    if (response.error) return setError(describe(response.error));
    setResult(response.data?.searchKnowledgeBase ?? null);
  }

  return (
    <section className="card" aria-label={t("knowledgeBases.search.title")}>
      <h2>{t("knowledgeBases.search.title")}</h2>
      <form onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>{t("knowledgeBases.search.query")}</span>
          <input type="search" value={query} placeholder={t("knowledgeBases.search.queryPlaceholder")} onChange={(e) => setQuery(e.target.value)} />
        </label>
        <div className="row">
          <label className="field" style={{ flex: 1 }}>
            <span>{t("knowledgeBases.search.intensity")}</span>
            <select value={intensity} onChange={(e) => setIntensity(e.target.value as Intensity)}>
              {INTENSITIES.map((value) => (
                <option key={value} value={value}>
                  {t(`knowledgeBases.intensity.${value}`)}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="primary" busy={busy} disabled={!query.trim()}>
            {t("knowledgeBases.search.submit")}
          </Button>
        </div>
        <p className="hint">{t("knowledgeBases.search.intensityHelp")}</p>
      </form>
      {error ? <p className="field__error" role="alert">{error}</p> : null}
      {result ? (
        <div aria-live="polite" data-testid="search-results">
          <p className="muted">
            {t("knowledgeBases.search.results", { count: result.hits.length })} · top_k {result.topK} · {result.store}
          </p>
          {result.hits.length === 0 ? <p className="muted">{t("knowledgeBases.search.empty")}</p> : null}
          {result.hits.map((hit) => (
            <div key={hit.chunkId} className="hit">
              <div className="hit__head">
                <span>{hit.label}</span>
                <span className="score">{t("knowledgeBases.search.score", { score: hit.score.toFixed(3) })}</span>
              </div>
              <div className="hit__text">{hit.text}</div>
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}
