/**
 * Ids the server picks for nodes and edges added without one: `<type>-<n>` and `e<n>`, with n one more
 * than the highest number already used with that prefix, so ids read naturally on the canvas.
 */
export function nextNodeId(type: string, taken: Iterable<string>): string {
  return `${type}-${nextNumber(`${type}-`, taken)}`;
}

/** `highest`: the highest n of the workflow's `e<n>` keys (0 without one), as edgeCounters reads it. */
export function nextEdgeId(highest: number, atLeast: number): string {
  return `e${Math.max(atLeast, highest + 1)}`;
}

function nextNumber(prefix: string, taken: Iterable<string>): number {
  let highest = 0;
  for (const id of taken) {
    if (!id.startsWith(prefix)) continue;
    const rest = id.slice(prefix.length);
    if (/^\d{1,9}$/.test(rest)) highest = Math.max(highest, Number(rest));
  }
  return highest + 1;
}
