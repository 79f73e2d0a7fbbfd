"use client";

import { useT } from "@/i18n/i18n-provider";

export interface RetrievalSettingsView {
  vectorStore: string;
  availableStores: readonly string[];
  embedder: { model: string; dimension: number };
  topK: { low: number; medium: number; high: number };
  hybridAlpha: number;
  chunkSize: number;
  chunkOverlap: number;
  pgvectorEfSearch: number;
}

export interface ExecutionSettingsView {
  runConcurrency: number;
  processConcurrency: number;
  parseRepair: boolean;
  providerTimeoutMs: number;
}

/** How knowledge bases are stored and searched, as the server reports it (not a fixed description). */
export function RetrievalCard({ settings }: { settings: RetrievalSettingsView }) {
  const t = useT();
  const storeLabel = (store: string) => (store === "weaviate" ? t("settings.retrieval.store.weaviate") : t("settings.retrieval.store.pgvector"));
  const others = settings.availableStores.filter((store) => store !== settings.vectorStore);
  return (
    <section className="card" aria-label={t("settings.retrieval.title")}>
      <h2>{t("settings.retrieval.title")}</h2>
      <dl className="dl">
        <dt>{t("settings.retrieval.store")}</dt>
        <dd data-store={settings.vectorStore}>
          {storeLabel(settings.vectorStore)}
          {others.length > 0 ? <span className="muted"> {t("settings.retrieval.storeAlso", { stores: others.join(", ") })}</span> : null}
        </dd>
        <dt>{t("settings.retrieval.embedder")}</dt>
        <dd>
          <code>{settings.embedder.model}</code> {t("settings.retrieval.dimension", { dimension: settings.embedder.dimension })}
        </dd>
        <dt>{t("settings.retrieval.topK")}</dt>
        <dd>{t("settings.retrieval.topKValue", settings.topK)}</dd>
        <dt>{t("settings.retrieval.alpha")}</dt>
        <dd>{t("settings.retrieval.alphaValue", { alpha: settings.hybridAlpha })}</dd>
        <dt>{t("settings.retrieval.chunking")}</dt>
        <dd>{t("settings.retrieval.chunkingValue", { size: settings.chunkSize, overlap: settings.chunkOverlap })}</dd>
        <dt>{t("settings.retrieval.efSearch")}</dt>
        <dd>{settings.pgvectorEfSearch}</dd>
      </dl>
    </section>
  );
}

export function ExecutionCard({ settings }: { settings: ExecutionSettingsView }) {
  const t = useT();
  return (
    <section className="card" aria-label={t("settings.execution.title")}>
      <h2>{t("settings.execution.title")}</h2>
      <dl className="dl">
        <dt>{t("settings.execution.concurrency")}</dt>
        <dd>{t("settings.execution.concurrencyValue", { run: settings.runConcurrency, process: settings.processConcurrency })}</dd>
        <dt>{t("settings.execution.parseRepair")}</dt>
        <dd>{settings.parseRepair ? t("settings.execution.parseRepair.on") : t("settings.execution.parseRepair.off")}</dd>
        <dt>{t("settings.execution.timeout")}</dt>
        <dd>{t("settings.execution.timeoutValue", { seconds: settings.providerTimeoutMs / 1000 })}</dd>
      </dl>
    </section>
  );
}
