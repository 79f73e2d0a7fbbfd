import type { LiveEvent, RunStatusValue } from "../../runs/live/run-projection";

/** One printed line of the results pane, in the order the events arrived. */
export type ResultLine =
  | { kind: "description"; key: string; nodeId: string; text: string }
  | { kind: "streaming"; key: string; nodeId: string; text: string }
  | { kind: "error"; key: string; nodeId: string | null; code: string; message: string }
  | { kind: "skipped"; key: string; nodeId: string; reason: string }
  | { kind: "warning"; key: string; nodeId: string | null; code: string; message: string }
  | { kind: "run"; key: string; status: RunStatusValue; result: string | null }
  /** RUN_RESUMED: another worker took the run over after its worker stopped. */
  | { kind: "resumed"; key: string; attempt: number | null }
  /** weft.workflow/v2: a router's choice, a loop going round again, a map's items, a cache answer. */
  | { kind: "branch"; key: string; nodeId: string; ports: readonly string[] }
  | { kind: "loop"; key: string; loopId: string; iteration: number; max: number | null; feedback: string | null }
  | { kind: "map"; key: string; nodeId: string; items: number }
  | { kind: "cache"; key: string; nodeId: string; similarity: number | null };

const errorOf = (event: LiveEvent): { code: string; message: string } => event.error ?? { code: "ERROR", message: "" };

/**
 * Folds events into printed lines: a node's streamed tokens show as one growing line that its
 * description then replaces; a description is printed once even though NODE_COMPLETED repeats it.
 */
export function buildResultLines(events: readonly LiveEvent[]): ResultLine[] {
  const lines: ResultLine[] = [];
  const described = new Set<string>();
  const streaming = new Map<string, number>();
  const describe = (nodeId: string, text: string, seq: number) => {
    described.add(nodeId);
    const at = streaming.get(nodeId);
    const line: ResultLine = { kind: "description", key: `d-${seq}`, nodeId, text };
    if (at === undefined) lines.push(line);
    else lines[at] = line;
    streaming.delete(nodeId);
  };
  for (const event of events) {
    const nodeId = event.nodeId;
    switch (event.type) {
      case "NODE_TOKEN": {
        if (!nodeId || described.has(nodeId)) break;
        const at = streaming.get(nodeId);
        const piece = event.text ?? "";
        if (at === undefined) {
          streaming.set(nodeId, lines.length);
          lines.push({ kind: "streaming", key: `s-${event.seq}`, nodeId, text: piece });
        } else {
          const current = lines[at] as Extract<ResultLine, { kind: "streaming" }>;
          lines[at] = { ...current, text: current.text + piece };
        }
        break;
      }
      case "NODE_DESCRIPTION":
      case "NODE_COMPLETED": {
        const text = event.description;
        if (nodeId && text !== null && !described.has(nodeId)) describe(nodeId, text, event.seq);
        break;
      }
      case "NODE_FAILED": {
        if (nodeId !== null && streaming.has(nodeId)) streaming.delete(nodeId);
        lines.push({ kind: "error", key: `f-${event.seq}`, nodeId, ...errorOf(event) });
        break;
      }
      case "NODE_SKIPPED":
        if (nodeId) lines.push({ kind: "skipped", key: `k-${event.seq}`, nodeId, reason: event.reason ?? "" });
        break;
      case "WARNING":
        lines.push({ kind: "warning", key: `w-${event.seq}`, nodeId, code: event.code ?? "WARNING", message: event.text ?? "" });
        break;
      case "RUN_COMPLETED":
        lines.push({ kind: "run", key: `r-${event.seq}`, status: "COMPLETED", result: event.output });
        break;
      case "RUN_FAILED":
        lines.push({ kind: "run", key: `r-${event.seq}`, status: "FAILED", result: null });
        lines.push({ kind: "error", key: `re-${event.seq}`, nodeId: null, ...errorOf(event) });
        break;
      case "BRANCH_TAKEN":
      case "LOOP_ITERATION":
      case "MAP_STARTED":
      case "CACHE_HIT": {
        const line = pipelineLine(event);
        if (line) lines.push(line);
        break;
      }
      case "RUN_RESUMED":
        lines.push({ kind: "resumed", key: `u-${event.seq}`, attempt: event.attempt });
        break;
      case "RUN_CANCELLED":
        lines.push({ kind: "run", key: `r-${event.seq}`, status: "CANCELLED", result: null });
        break;
      default:
        break;
    }
  }
  return lines;
}

/** The line a weft.workflow/v2 event prints, when it has what the line needs. */
function pipelineLine(event: LiveEvent): ResultLine | null {
  const fields = event.pipeline;
  if (!fields) return null;
  const key = `p-${event.seq}`;
  if (event.type === "LOOP_ITERATION" && fields.loopId) return { kind: "loop", key, loopId: fields.loopId, iteration: fields.iteration ?? 1, max: fields.max, feedback: fields.feedback };
  if (!event.nodeId) return null;
  if (event.type === "BRANCH_TAKEN") return { kind: "branch", key, nodeId: event.nodeId, ports: fields.ports ?? [] };
  if (event.type === "MAP_STARTED") return { kind: "map", key, nodeId: event.nodeId, items: fields.items ?? 0 };
  return { kind: "cache", key, nodeId: event.nodeId, similarity: fields.similarity };
}
