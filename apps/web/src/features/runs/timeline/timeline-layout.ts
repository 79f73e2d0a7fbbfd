/**
 * The Gantt timeline's geometry: where each node's bar starts and how wide it is, as percentages of
 * the run's span, plus evenly spaced axis ticks at round durations. Times come as ISO strings from the
 * API; a node still running extends to `now`.
 */

export interface TimelineItem {
  id: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface TimelineBar {
  id: string;
  /** Null when the node never started (pending or skipped): the row is shown without a bar. */
  offsetPct: number | null;
  widthPct: number | null;
  durationMs: number | null;
  open: boolean;
}

export interface TimelineTick {
  ms: number;
  pct: number;
}

export interface TimelineLayout {
  spanMs: number;
  bars: TimelineBar[];
  ticks: TimelineTick[];
  /** Where each mark (a moment of the run, such as a resumption) falls, as a percentage of the span. */
  marks: number[];
}

/** Bars narrower than this are widened so a 2 ms node is still visible beside a 2 minute one. */
export const MIN_BAR_PCT = 0.6;
const TICK_STEPS = [1, 2, 5];

const parse = (iso: string | null): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

/** The smallest round step (1, 2 or 5 × 10^k ms) that needs at most `maxTicks` intervals. */
export function tickStep(spanMs: number, maxTicks = 6): number {
  if (spanMs <= 0) return 1;
  const raw = spanMs / maxTicks;
  let magnitude = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const factor of TICK_STEPS) {
      const step = factor * magnitude;
      if (step >= raw) return step;
    }
    magnitude *= 10;
  }
}

export function layoutTimeline(
  items: readonly TimelineItem[],
  options: { origin?: string | null; now: number; marks?: readonly string[] },
): TimelineLayout {
  const starts = items.map((item) => parse(item.startedAt));
  const ends = items.map((item, i) => (starts[i] === null ? null : (parse(item.finishedAt) ?? options.now)));
  const known = starts.filter((ms): ms is number => ms !== null);
  const origin = parse(options.origin ?? null) ?? (known.length > 0 ? Math.min(...known) : options.now);
  const markTimes = (options.marks ?? []).map((at) => parse(at) ?? origin);
  const lastEnd = Math.max(origin, ...ends.filter((ms): ms is number => ms !== null), ...markTimes);
  const spanMs = Math.max(1, lastEnd - origin);

  const bars = items.map((item, i): TimelineBar => {
    const start = starts[i] ?? null;
    const end = ends[i] ?? null;
    if (start === null || end === null) {
      return { id: item.id, offsetPct: null, widthPct: null, durationMs: null, open: false };
    }
    const from = Math.max(start, origin);
    const durationMs = Math.max(0, end - start);
    let offsetPct = ((from - origin) / spanMs) * 100;
    const widthPct = Math.max(MIN_BAR_PCT, (Math.max(0, end - from) / spanMs) * 100);
    // Keep widened bars inside the track.
    offsetPct = Math.min(offsetPct, 100 - widthPct);
    return { id: item.id, offsetPct, widthPct, durationMs, open: parse(item.finishedAt) === null };
  });

  const step = tickStep(spanMs);
  const ticks: TimelineTick[] = [];
  for (let ms = 0; ms <= spanMs; ms += step) ticks.push({ ms, pct: (ms / spanMs) * 100 });
  const marks = markTimes.map((ms) => Math.min(100, Math.max(0, ((ms - origin) / spanMs) * 100)));
  return { spanMs, bars, ticks, marks };
}
