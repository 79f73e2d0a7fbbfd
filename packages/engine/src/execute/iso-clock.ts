/**
 * ISO-8601 times from a millisecond clock, formatted once per millisecond: a run stamps every event
 * and every node's start and end, many of them within the same millisecond, and formatting a Date
 * costs more than the rest of stamping an event.
 */
export function isoClock(now: () => number): () => string {
  let lastMs = Number.NaN;
  let lastIso = "";
  return () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}
