/**
 * Ids the server picks for nodes and edges added without one: `<type>-<n>` and `e<n>`, with n one more
 * than the highest number already used with that prefix, so ids read naturally on the canvas.
 */
export function nextNodeId(type: string, taken: Iterable<string>): string {
  return `${type}-${nextNumber(`${type}-`, taken)}`;
}

/**
 * The next `e<n>` edge number: above `lastEdgeNumber`, the highest the workflow ever had (every write
 * that adds edges keeps it: highestEdgeNumber on create and import, this on addEdge), so the id of a
 * deleted edge is never given to another one (a client still holding it would act on the wrong edge),
 * and at least `atLeast` (the new edge's position).
 */
export function nextEdgeNumber(lastEdgeNumber: number, atLeast: number): number {
  return Math.max(lastEdgeNumber + 1, atLeast);
}

/** The highest n among `e<n>` ids (0 when none), for a workflow stored whole (create, import). */
export function highestEdgeNumber(ids: Iterable<string>): number {
  return nextNumber("e", ids) - 1;
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
