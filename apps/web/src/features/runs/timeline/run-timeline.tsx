"use client";

import { useEffect, useState } from "react";
import { useT } from "@/i18n/i18n-provider";
import type { AnyStatus } from "../status/status-badge";
import { statusTone } from "../status/status-badge";
import { formatDuration } from "../status/format-duration";
import { layoutTimeline } from "./timeline-layout";

export interface TimelineRow {
  /** The row: the node's id, or `<node>@<invocation>` for one of several executions (run-view.ts). */
  id: string;
  nodeId: string;
  /** "" at top level; "regen#2" (a loop's second iteration), "perQuestion[1]" (a map's item 1). */
  invocation: string;
  type: string;
  status: AnyStatus;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Re-renders every half second while something is open, so running bars grow. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** A moment of the run drawn as a row of its own: a resumption by another worker (RUN_RESUMED). */
export interface TimelineMark {
  key: string;
  at: string;
  label: string;
}

export function RunTimeline({
  rows,
  origin,
  selected,
  onSelect,
  marks = [],
}: {
  rows: TimelineRow[];
  origin: string | null;
  selected: string | null;
  onSelect: (id: string) => void;
  marks?: readonly TimelineMark[];
}) {
  const t = useT();
  const open = rows.some((row) => row.startedAt && !row.finishedAt);
  const now = useNow(open);
  if (!rows.some((row) => row.startedAt)) return <p className="muted">{t("runs.timeline.empty")}</p>;
  const layout = layoutTimeline(rows, { origin, now, marks: marks.map((mark) => mark.at) });
  return (
    <div className="timeline" role="list" aria-label={t("runs.detail.timeline")}>
      <span />
      <div className="timeline__axis" aria-hidden="true">
        {layout.ticks.map((tick) => (
          <span key={tick.ms} className="timeline__tick" style={{ left: `${tick.pct}%` }}>
            {formatDuration(tick.ms)}
          </span>
        ))}
      </div>
      <span />
      {marks.map((mark, i) => (
        <div key={mark.key} role="listitem" style={{ display: "contents" }} data-mark={mark.key}>
          <span className="timeline__mark-label" title={mark.label}>{mark.label}</span>
          <div className="timeline__track timeline__track--mark">
            <span className="timeline__mark" style={{ left: `${layout.marks[i] ?? 0}%` }} />
          </div>
          <span />
        </div>
      ))}
      {rows.map((row, i) => {
        const bar = layout.bars[i];
        return (
          <div key={row.id} role="listitem" style={{ display: "contents" }} data-node-id={row.nodeId} data-invocation={row.invocation}>
            <button
              type="button"
              className={row.id === selected ? "timeline__label timeline__label--selected" : "timeline__label"}
              translate="no"
              title={`${row.nodeId} (${row.type})${row.invocation ? ` · ${row.invocation}` : ""}`}
              onClick={() => onSelect(row.id)}
            >
              {row.nodeId}
              {row.invocation ? <span className="timeline__invocation">{row.invocation}</span> : null}
            </button>
            <div className="timeline__track">
              {bar && bar.offsetPct !== null && bar.widthPct !== null ? (
                <div
                  className={`timeline__bar timeline__bar--${statusTone(row.status)}`}
                  style={{ left: `${bar.offsetPct}%`, width: `${bar.widthPct}%` }}
                  title={`${row.id}: ${formatDuration(bar.durationMs)}`}
                />
              ) : null}
            </div>
            <span className="timeline__duration">
              {bar?.durationMs !== null && bar?.durationMs !== undefined ? formatDuration(bar.durationMs) : t("runs.timeline.notStarted")}
            </span>
          </div>
        );
      })}
    </div>
  );
}
