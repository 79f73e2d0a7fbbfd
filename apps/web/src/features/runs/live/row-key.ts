/**
 * One execution's id on the run pages: the timeline's row, the live state's tool calls (`calls`), the
 * selection. The node's id at top level (one execution), else `<node>@<invocation>`.
 */
export const rowKey = (nodeId: string, invocation: string): string => (invocation ? `${nodeId}@${invocation}` : nodeId);

/** The node and invocation a row id names. */
export function parseRowKey(key: string): { nodeId: string; invocation: string } {
  const at = key.indexOf("@");
  return at === -1 ? { nodeId: key, invocation: "" } : { nodeId: key.slice(0, at), invocation: key.slice(at + 1) };
}
