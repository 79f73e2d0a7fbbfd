"use client";

import type { ReactNode } from "react";
import { useI18n, useT } from "@/i18n/i18n-provider";
import type { NodeLiveState } from "../live/run-projection";
import { StatusBadge, type AnyStatus } from "../status/status-badge";
import { formatDuration } from "../status/format-duration";
import type { TimelineRow } from "../timeline/run-timeline";
import { formatScore, readScoredChunks } from "./scored-chunks";
import { RichValue } from "../../../ui/rich-value";
import { formatUsd } from "@/ui/format-usd";
import { runDescriptionIn } from "../live/run-description.ko";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";

/** The persisted node run, as the run query returns it. */
export interface NodeRunView {
  nodeId: string;
  nodeType: string;
  status: AnyStatus;
  inputs: string[];
  renderedPrompt?: string | null;
  context?: unknown;
  store?: string | null;
  rawReply?: string | null;
  description?: string | null;
  output?: string | null;
  error?: { code: string; message: string } | null;
  provider?: string | null;
  model?: string | null;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd?: number | null;
  retries: number;
  durationMs?: number | null;
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

function Text({ value, error = false }: { value: string | null | undefined; error?: boolean }) {
  const t = useT();
  if (value === null || value === undefined || value === "") return <p className="muted">{t("runs.node.empty")}</p>;
  return <pre className={error ? "pre pre--error" : "pre"}>{value}</pre>;
}

/**
 * Everything recorded about one node in this run. While the run is live the persisted record may lag
 * behind the events, so the live state (status, description, streamed text, error) fills the gaps.
 */
export function NodeRunDetails({
  nodeId,
  nodeType,
  invocation = "",
  executions = [],
  onSelectExecution,
  record,
  live,
  afterOutput,
}: {
  nodeId: string;
  nodeType: string;
  /** Which execution is shown: "" at top level, "regen#2", "perQuestion[1]", … */
  invocation?: string;
  /** Every execution of the node so far (timeline rows), to switch between them. */
  executions?: readonly TimelineRow[];
  onSelectExecution?: (row: string) => void;
  record: NodeRunView | null;
  live: NodeLiveState | null;
  /** What the node's type adds after its output (an agent's steps). */
  afterOutput?: ReactNode;
}) {
  const t = useT();
  const { language } = useI18n();
  const typeLabel = useNodeTypeLabel();
  const status: AnyStatus = live?.status ?? record?.status ?? "PENDING";
  const chunks = readScoredChunks(record?.context);
  const error = record?.error ?? live?.error ?? null;
  const description = record?.description ?? live?.description ?? null;
  return (
    <div className="node-details" data-node-id={nodeId}>
      <div className="node-details__head">
        <h2>{t("runs.node.title", { id: nodeId })}</h2>
        <StatusBadge status={status} />
        <span className="badge">{typeLabel(nodeType)}</span>
        {invocation ? <code className="badge" data-invocation={invocation}>{invocation}</code> : null}
      </div>
      {executions.length > 1 && onSelectExecution ? (
        <nav className="executions" aria-label={t("pipeline.run.executions")}>
          <span className="muted">{t("pipeline.run.executions")}</span>
          {executions.map((row) => (
            <button key={row.id} type="button" className={row.invocation === invocation ? "executions__item executions__item--selected" : "executions__item"} aria-pressed={row.invocation === invocation} onClick={() => onSelectExecution(row.id)}>
              {row.invocation || t("pipeline.run.topLevel")}
            </button>
          ))}
        </nav>
      ) : null}
      <dl className="dl">
        <dt>{t("runs.node.model")}</dt>
        <dd>{record?.model ? `${record.provider ?? "?"} / ${record.model}` : t("runs.node.empty")}</dd>
        <dt>{t("runs.node.tokens")}</dt>
        <dd>
          {record
            ? t("runs.detail.tokensSplit", { total: record.totalTokens, prompt: record.promptTokens, completion: record.completionTokens })
            : t("runs.node.empty")}
        </dd>
        {record?.costUsd !== null && record?.costUsd !== undefined ? (
          <>
            <dt>{t("runs.node.cost")}</dt>
            <dd>{formatUsd(record.costUsd)}</dd>
          </>
        ) : null}
        <dt>{t("runs.node.retries")}</dt>
        <dd>{record ? record.retries : t("runs.node.empty")}</dd>
        <dt>{t("runs.node.duration")}</dt>
        <dd>{formatDuration(record?.durationMs ?? null)}</dd>
      </dl>
      {error ? (
        <Block title={t("runs.node.error")}>
          <Text value={`${error.code}: ${error.message}`} error />
        </Block>
      ) : null}
      <Block title={t("runs.node.description")}>
        <Text value={description === null ? null : runDescriptionIn(language, description)} />
      </Block>
      <Block title={t("runs.node.output")}>
        {record?.output ?? live?.output ? <RichValue value={record?.output ?? live?.output} /> : <Text value={null} />}
      </Block>
      {afterOutput}
      {live?.skipReason ? (
        <Block title={t("pipeline.run.skipReason")}>
          <Text value={live.skipReason} />
        </Block>
      ) : null}
      <Block title={t("runs.node.inputs")}>
        {record && record.inputs.length > 0 ? (
          record.inputs.map((input, i) => <Text key={i} value={input} />)
        ) : (
          <p className="muted">{t("runs.node.noInputs")}</p>
        )}
      </Block>
      <Block title={t("runs.node.prompt")}>
        <Text value={record?.renderedPrompt} />
      </Block>
      <Block title={t("runs.node.context") + (record?.store ? ` · ${record.store}` : "")}>
        {chunks.length === 0 ? (
          <p className="muted">{t("runs.node.noContext")}</p>
        ) : (
          chunks.map((chunk) => (
            <div key={chunk.id} className="chunk">
              <div className="chunk__head">
                <span>
                  {chunk.title ?? "?"}
                  {chunk.chunkIndex !== null ? ` #${chunk.chunkIndex}` : ""}
                  {chunk.page !== null ? ` p.${chunk.page}` : ""}
                </span>
                <span className="score">{t("runs.node.score", { score: formatScore(chunk.score) })}</span>
              </div>
              <div className="chunk__text">{chunk.text}</div>
            </div>
          ))
        )}
      </Block>
      <Block title={t("runs.node.rawReply")}>
        <Text value={record?.rawReply} />
      </Block>
      {live && live.tokens && !record?.rawReply ? (
        <Block title={t("runs.node.streamed")}>
          <Text value={live.tokens} />
        </Block>
      ) : null}
    </div>
  );
}
