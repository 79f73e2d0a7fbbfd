import type { LiveEvent, RunStatusValue } from "../../runs/live/run-projection";

/** One printed line of the results pane, in the order the events arrived. */
export type ResultLine = ResultLineBody & { invocation?: string };

type ResultLineBody =
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
 * description then replaces; a description is printed once per execution (a loop iteration, a map item)
 * even though NODE_COMPLETED repeats it; a router's choice is printed once (its BRANCH_TAKEN line stands
 * for its description). Every line carries the invocation of the event that printed it.
 */
export function buildResultLines(events: readonly LiveEvent[]): ResultLine[] {
  const lines: ResultLine[] = [];
  // Keyed by execution: node id and invocation.
  const described = new Set<string>();
  const describedAt = new Map<string, number>();
  const streaming = new Map<string, number>();
  const put = (execution: string, line: ResultLine, at: number | undefined) => {
    described.add(execution);
    streaming.delete(execution);
    if (at === undefined) {
      describedAt.set(execution, lines.length);
      lines.push(line);
    } else {
      describedAt.set(execution, at);
      lines[at] = line;
    }
  };
  for (const event of events) {
    const nodeId = event.nodeId;
    const invocation = event.pipeline?.invocation ?? "";
    const execution = `${nodeId ?? ""}@${invocation}`;
    const push = (line: ResultLine) => lines.push({ ...line, invocation });
    switch (event.type) {
      case "NODE_TOKEN": {
        if (!nodeId || described.has(execution)) break;
        const at = streaming.get(execution);
        const piece = event.text ?? "";
        if (at === undefined) {
          streaming.set(execution, lines.length);
          push({ kind: "streaming", key: `s-${event.seq}`, nodeId, text: piece });
        } else {
          const current = lines[at] as Extract<ResultLine, { kind: "streaming" }>;
          lines[at] = { ...current, text: current.text + piece };
        }
        break;
      }
      case "NODE_DESCRIPTION":
      case "NODE_COMPLETED": {
        const text = event.description;
        if (nodeId && text !== null && !described.has(execution)) put(execution, { kind: "description", key: `d-${event.seq}`, nodeId, text, invocation }, streaming.get(execution));
        break;
      }
      case "BRANCH_TAKEN": {
        const line = pipelineLine(event);
        if (!line || !nodeId) break;
        const at = describedAt.get(execution);
        put(execution, { ...line, invocation }, at !== undefined && lines[at]?.kind === "description" ? at : undefined);
        break;
      }
      case "NODE_FAILED":
        streaming.delete(execution);
        push({ kind: "error", key: `f-${event.seq}`, nodeId, ...errorOf(event) });
        break;
      case "NODE_SKIPPED":
        if (nodeId) push({ kind: "skipped", key: `k-${event.seq}`, nodeId, reason: event.reason ?? "" });
        break;
      case "WARNING":
        push({ kind: "warning", key: `w-${event.seq}`, nodeId, code: event.code ?? "WARNING", message: event.text ?? "" });
        break;
      case "RUN_COMPLETED":
        push({ kind: "run", key: `r-${event.seq}`, status: "COMPLETED", result: event.output });
        break;
      case "RUN_FAILED":
        push({ kind: "run", key: `r-${event.seq}`, status: "FAILED", result: null });
        push({ kind: "error", key: `re-${event.seq}`, nodeId: null, ...errorOf(event) });
        break;
      case "LOOP_ITERATION":
      case "MAP_STARTED":
      case "CACHE_HIT": {
        const line = pipelineLine(event);
        if (line) push(line);
        break;
      }
      case "RUN_RESUMED":
        push({ kind: "resumed", key: `u-${event.seq}`, attempt: event.attempt });
        break;
      case "RUN_CANCELLED":
        push({ kind: "run", key: `r-${event.seq}`, status: "CANCELLED", result: null });
        break;
      default:
        break;
    }
  }
  return lines;
}

/** A map's lines gathered per item, in the order the items' first lines arrived. */
export interface ItemGroup {
  kind: "items";
  key: string;
  nodeId: string;
  items: { index: number; lines: ResultLine[] }[];
}

export type ResultEntry = { kind: "line"; line: ResultLine } | ItemGroup;

/** `perQuestion[2]/regen#1` → the map `perQuestion` and its item 2; top-level and loop invocations → null. */
export function mapItemOf(invocation: string | undefined): { nodeId: string; index: number } | null {
  const match = /^([^/[#]+)\[(\d+)\]/.exec(invocation ?? "");
  return match ? { nodeId: match[1]!, index: Number(match[2]) } : null;
}

/**
 * The lines as the pane shows them: a map's per-item lines (from any depth inside its body) grouped by
 * item index where its first item printed, every other line as it is.
 */
export function groupMapItems(lines: readonly ResultLine[]): ResultEntry[] {
  const entries: ResultEntry[] = [];
  const groups = new Map<string, ItemGroup>();
  for (const line of lines) {
    const item = mapItemOf(line.invocation);
    if (!item) {
      entries.push({ kind: "line", line });
      continue;
    }
    let group = groups.get(item.nodeId);
    if (!group) {
      group = { kind: "items", key: `items-${item.nodeId}`, nodeId: item.nodeId, items: [] };
      groups.set(item.nodeId, group);
      entries.push(group);
    }
    let bucket = group.items.find((candidate) => candidate.index === item.index);
    if (!bucket) {
      bucket = { index: item.index, lines: [] };
      group.items.push(bucket);
      group.items.sort((a, b) => a.index - b.index);
    }
    bucket.lines.push(line);
  }
  return entries;
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
