"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef } from "react";
import type { MessageKey } from "../../../i18n/dictionary.type";
import { useI18n, useT } from "../../../i18n/i18n-provider";
import type { LiveEvent, RunStatusValue } from "../../runs/live/run-projection";
import { violationReason } from "../rules/violation-reason";
import type { GraphNodes } from "../rules/localize-violation";
import type { ResultLine } from "./result-lines";
import { buildResultLines, groupMapItems, type ItemGroup } from "./result-lines";
import { skipReasonText } from "../../runs/live/skip-reason";
import { RichValue } from "../../../ui/rich-value";
import { runDescriptionIn } from "../../runs/live/run-description.ko";

/** What a list of refusals answers. */
export type RefusalKind = "run" | "check" | "publish";

export interface RunRefusal {
  code: string;
  message: string;
  nodeIds: readonly string[];
  edgeIds: readonly string[];
  /** Inside a map's or subgraph's body: the enclosing body nodes, outermost first (nodeIds are the body's). */
  bodyPath?: readonly string[] | null;
}

/** The canvas nodes a refusal concerns: its own, or for a problem inside a body, the node holding it. */
export const flaggedNodesOf = (refusals: readonly RunRefusal[]): string[] => refusals.flatMap((refusal) => (refusal.bodyPath?.length ? [refusal.bodyPath[0]!] : refusal.nodeIds));

interface ResultsPaneProps {
  runId: string | null;
  status: RunStatusValue | null;
  events: readonly LiveEvent[];
  refusals: readonly RunRefusal[];
  /** What the refusals answer: a run that was refused, a check of the graph, a refused publish. */
  refusalKind?: RefusalKind;
  reconnecting?: boolean;
  onFocusNode?: (nodeId: string) => void;
  /** The current graph, so refusals name node types in the UI's language. */
  getGraph?: () => GraphNodes;
}

/** Prints each node's description (or error) as its events arrive, then the run's outcome. */
export function ResultsPane({ runId, status, events, refusals, refusalKind = "run", reconnecting = false, onFocusNode, getGraph }: ResultsPaneProps) {
  const t = useT();
  const lines = useMemo(() => buildResultLines(events), [events]);
  const entries = useMemo(() => groupMapItems(lines), [lines]);
  const pane = useRef<HTMLElement>(null);
  // Follow new lines while the reader is at the bottom; leave them alone once they scroll up.
  const atBottom = useRef(true);
  useEffect(() => {
    const element = pane.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [lines]);
  return (
    <section
      ref={pane}
      className="results"
      aria-label={t("editor.results.title")}
      data-testid="results-pane"
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
      }}
    >
      <header className="results__header">
        <h2>{t("editor.results.title")}</h2>
        {status ? (
          <span className={`badge badge--${status.toLowerCase()}`} data-testid="run-status">
            {t("editor.results.runStatus", { status: t(`editor.runStatus.${status}` as MessageKey) })}
          </span>
        ) : null}
        {runId ? (
          <Link className="results__link" href={`/runs/${runId}`}>
            {t("editor.run.openDetail")}
          </Link>
        ) : null}
      </header>
      {reconnecting ? <p className="results__notice">{t("editor.results.connectionLost")}</p> : null}
      {refusals.length > 0 ? <RefusalList refusals={refusals} kind={refusalKind} onFocusNode={onFocusNode} graph={getGraph?.()} /> : null}
      {refusals.length === 0 && !runId ? <p className="results__empty">{t("editor.results.empty")}</p> : null}
      {runId && lines.length === 0 ? <p className="results__empty">{t("editor.results.waiting")}</p> : null}
      <ol className="results__lines">
        {entries.map((entry) =>
          entry.kind === "line" ? <ResultLineView key={entry.line.key} line={entry.line} onFocusNode={onFocusNode} /> : <ItemGroupView key={entry.key} group={entry} onFocusNode={onFocusNode} />,
        )}
      </ol>
    </section>
  );
}

function NodeRef({ nodeId, onFocusNode }: { nodeId: string; onFocusNode: ((nodeId: string) => void) | undefined }) {
  if (!onFocusNode) return <strong className="results__node" translate="no">{nodeId}</strong>;
  return (
    <button type="button" className="results__node results__node--link" translate="no" onClick={() => onFocusNode(nodeId)}>
      {nodeId}
    </button>
  );
}

function ResultLineView({ line, onFocusNode }: { line: ResultLine; onFocusNode: ((nodeId: string) => void) | undefined }) {
  const t = useT();
  const { language } = useI18n();
  switch (line.kind) {
    case "description":
      return (
        <li className="results__line results__line--description" data-node-id={line.nodeId}>
          <NodeRef nodeId={line.nodeId} onFocusNode={onFocusNode} /> <span translate="no">{runDescriptionIn(language, line.text)}</span>
        </li>
      );
    case "streaming":
      return (
        <li className="results__line results__line--streaming" data-node-id={line.nodeId}>
          <NodeRef nodeId={line.nodeId} onFocusNode={onFocusNode} /> <em>{t("editor.results.streaming")}</em>
          <pre className="results__tokens">{line.text}</pre>
        </li>
      );
    case "error":
      return (
        <li className="results__line results__line--error" data-node-id={line.nodeId ?? undefined}>
          {line.nodeId ? <NodeRef nodeId={line.nodeId} onFocusNode={onFocusNode} /> : null} <code>{line.code}</code> <span>{line.message}</span>
        </li>
      );
    case "skipped":
      return (
        <li className="results__line results__line--skipped" data-node-id={line.nodeId}>
          <NodeRef nodeId={line.nodeId} onFocusNode={onFocusNode} /> <span data-reason={line.reason || undefined}>{skipReasonText(t, line.reason) ?? t("editor.results.skipped")}</span>
        </li>
      );
    case "warning":
      return (
        <li className="results__line results__line--warning">
          <span className="results__tag">{t("editor.results.warning")}</span>
          {line.nodeId ? <NodeRef nodeId={line.nodeId} onFocusNode={onFocusNode} /> : null} <span>{line.message}</span> <code>{line.code}</code>
        </li>
      );
    case "branch":
    case "loop":
    case "map":
    case "cache":
      return <PipelineLineView line={line} onFocusNode={onFocusNode} />;
    case "resumed":
      return (
        <li className="results__line results__line--resumed" data-event-type="RUN_RESUMED">
          <span className="results__tag">{t("runs.live.resumedTag")}</span> <span>{t("runs.live.resumed", { attempt: line.attempt ?? "?" })}</span>
        </li>
      );
    case "run":
      return (
        <li className={`results__line results__line--run results__line--${line.status.toLowerCase()}`}>
          <strong>{t("editor.results.runStatus", { status: t(`editor.runStatus.${line.status}` as MessageKey) })}</strong>
          {line.result !== null ? (
            <div className="results__result">
              <span className="results__tag">{t("editor.results.result")}</span>
              <RichValue value={line.result} />
            </div>
          ) : null}
        </li>
      );
  }
}

const REFUSAL_HEADINGS: Record<RefusalKind, MessageKey> = {
  run: "editor.run.refused",
  check: "editor.run.checkFailed",
  publish: "versions.publish.refusedHeading",
};

function RefusalList({ refusals, kind, onFocusNode, graph }: { refusals: readonly RunRefusal[]; kind: RefusalKind; onFocusNode: ((nodeId: string) => void) | undefined; graph: GraphNodes | undefined }) {
  const t = useT();
  return (
    <div className="results__refusals" role="alert" data-testid="run-refusals">
      <p>
        <strong>{t(REFUSAL_HEADINGS[kind])}</strong>
      </p>
      <ul>
        {refusals.map((refusal, index) => {
          const reason = violationReason(t, refusal, graph);
          return (
            <li key={`${refusal.code}-${index}`}>
              <span>{reason.title}</span> <span className="results__detail">{reason.detail}</span>{" "}
              {refusal.bodyPath?.length ? <code className="results__body">{refusal.bodyPath.join(" › ")} ›</code> : null}
              {(refusal.bodyPath?.length ? refusal.bodyPath.slice(0, 1) : refusal.nodeIds).map((id) => (
                <NodeRef key={id} nodeId={id} onFocusNode={onFocusNode} />
              ))}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function PipelineLineView({ line, onFocusNode }: { line: Extract<ResultLine, { kind: "branch" | "loop" | "map" | "cache" }>; onFocusNode: ((nodeId: string) => void) | undefined }) {
  const t = useT();
  if (line.kind === "loop") {
    return (
      <li className="results__line results__line--loop" data-loop={line.loopId}>
        <span className="results__tag">{t("pipeline.live.loop", { loop: line.loopId, iteration: line.iteration, max: line.max ?? "?" })}</span>{" "}
        {line.feedback ? <span>{t("pipeline.live.feedback", { feedback: line.feedback })}</span> : null}
      </li>
    );
  }
  const text =
    line.kind === "branch"
      ? t("pipeline.results.branch", { ports: line.ports.join(", ") || "—" })
      : line.kind === "map"
        ? t("pipeline.results.map", { items: line.items })
        : t("pipeline.live.cacheHit", { similarity: line.similarity === null ? "" : line.similarity.toFixed(2) });
  return (
    <li className={`results__line results__line--${line.kind}`} data-node-id={line.nodeId}>
      <NodeRef nodeId={line.nodeId} onFocusNode={onFocusNode} /> <span>{text}</span>
    </li>
  );
}

/** A map's lines, one fold per item (its index counted from 1, as people count). */
function ItemGroupView({ group, onFocusNode }: { group: ItemGroup; onFocusNode: ((nodeId: string) => void) | undefined }) {
  const t = useT();
  return (
    <li className="results__line results__line--items" data-node-id={group.nodeId}>
      <details open>
        <summary>
          <NodeRef nodeId={group.nodeId} onFocusNode={onFocusNode} /> {t("pipeline.results.items", { count: group.items.length })}
        </summary>
        {group.items.map((item) => (
          <details key={item.index} className="results__item" data-item-index={item.index}>
            <summary>{t("pipeline.results.item", { number: item.index + 1 })}</summary>
            <ol className="results__lines">
              {item.lines.map((line) => (
                <ResultLineView key={line.key} line={line} onFocusNode={onFocusNode} />
              ))}
            </ol>
          </details>
        ))}
      </details>
    </li>
  );
}
