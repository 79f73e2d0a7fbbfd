/**
 * Which node invocation, if any, keeps crashing a run's workers (SPEC-V3 §1): a worker crash counts
 * against a run only when the same node invocation was in flight at each crash, and after
 * WEFT_RUN_MAX_ATTEMPTS such crashes in a row the run fails RUN_ATTEMPTS_EXHAUSTED naming it. A crash
 * with something else in flight, or nothing, only resumes the run. That is how a poison run (its node
 * kills every process that executes it) is told from runs that shared a worker with it, or were on a
 * worker killed for reasons of its own.
 *
 * Pure decisions over the run's stored events; run-crash-watch.ts does the reading and storing.
 */

/** One execution of a node, as events name it. */
export interface Invocation {
  nodeId: string;
  invocation: string;
}

/** Kept on the run (Run.crashSuspects) between its attempts. */
export interface CrashWatch {
  /** Crashes of the run's workers looked at so far (attempt − 1 − handovers when it was last looked at). */
  examined: number;
  /** Consecutive crashes at which every one of `suspects` was in flight; 0 when the last crash had nothing in flight. */
  crashes: number;
  /** The invocations in flight at each of those crashes: the intersection over them. */
  suspects: Invocation[];
}

export const NO_CRASHES: CrashWatch = Object.freeze({ examined: 0, crashes: 0, suspects: [] });

/** What the stored events say, as the worker reads them back. */
export interface StoredEvent {
  type: string;
  nodeId: string | null;
  payload: Record<string, unknown>;
}

const NODE_ENDS = new Set(["NODE_COMPLETED", "NODE_FAILED", "NODE_SKIPPED"]);
const ATTEMPT_STARTS = new Set(["RUN_STARTED", "RUN_RESUMED"]);

const keyOf = ({ nodeId, invocation }: Invocation): string => `${nodeId}\u0000${invocation}`;

/**
 * The invocations the last attempt had started and not ended: NODE_STARTED after the last RUN_STARTED
 * or RUN_RESUMED with no end of its own. Only nodes that do their own work count: a map or subgraph
 * (`isComposite`) stays open while its body runs, and its body's nodes are counted themselves. A start
 * an earlier attempt stored and the last one never repeated was not executing when the last worker died.
 */
export function inFlight(events: readonly StoredEvent[], isComposite: (nodeType: string) => boolean): Invocation[] {
  let open = new Map<string, Invocation>();
  for (const event of events) {
    if (ATTEMPT_STARTS.has(event.type)) {
      open = new Map();
      continue;
    }
    if (event.nodeId === null) continue;
    const invocation = { nodeId: event.nodeId, invocation: typeof event.payload["invocation"] === "string" ? event.payload["invocation"] : "" };
    if (event.type === "NODE_STARTED") {
      const nodeType = event.payload["nodeType"];
      if (typeof nodeType === "string" && !isComposite(nodeType)) open.set(keyOf(invocation), invocation);
    } else if (NODE_ENDS.has(event.type)) {
      open.delete(keyOf(invocation));
    }
  }
  return [...open.values()];
}

/**
 * The watch after the crashes a new claim finds (`crashesSoFar` = attempt − 1 − handovers). Nothing
 * new (the last attempt handed the run over): unchanged. One new attempt whose worker is still alive
 * (`lastWorkerAlive`: its job lock lapsed on a busy machine, or its execution threw, and the run was
 * taken over): no crash — it is looked at and counts nothing, so a run on a slow worker is never
 * failed by the rule. One new crash: the invocations in flight now were in flight when that worker
 * died, and are intersected with the suspects of the crashes before — still one in common, the count
 * goes on; none in common, a new count starts from what is in flight; nothing in flight, no suspect.
 * More than one: the later attempts died before they looked (the watch is stored before anything
 * executes), so they executed nothing of the run: no suspect.
 */
export function afterCrashes(previous: CrashWatch, crashesSoFar: number, inFlightNow: readonly Invocation[], lastWorkerAlive = false): CrashWatch {
  const fresh = crashesSoFar - previous.examined;
  if (fresh <= 0) return previous;
  if (fresh === 1 && lastWorkerAlive) return { ...previous, examined: crashesSoFar };
  if (fresh > 1 || inFlightNow.length === 0) return { examined: crashesSoFar, crashes: 0, suspects: [] };
  const now = new Set(inFlightNow.map(keyOf));
  const common = previous.suspects.filter((suspect) => now.has(keyOf(suspect)));
  if (previous.crashes > 0 && common.length > 0) return { examined: crashesSoFar, crashes: previous.crashes + 1, suspects: common };
  return { examined: crashesSoFar, crashes: 1, suspects: sorted(inFlightNow) };
}

/** A stored watch, or none for a run that has not crashed (or anything that is not a watch). */
export function readCrashWatch(json: unknown): CrashWatch {
  if (json === null || typeof json !== "object") return NO_CRASHES;
  const { examined, crashes, suspects } = json as Partial<Record<keyof CrashWatch, unknown>>;
  if (typeof examined !== "number" || typeof crashes !== "number" || !Array.isArray(suspects)) return NO_CRASHES;
  const invocations = suspects.filter(
    (item): item is Invocation => typeof item === "object" && item !== null && typeof item.nodeId === "string" && typeof item.invocation === "string",
  );
  return { examined, crashes, suspects: invocations };
}

/** RUN_ATTEMPTS_EXHAUSTED's message: which invocation, at how many crashes. */
export function exhaustedMessage(watch: CrashWatch): string {
  const named = watch.suspects.map(({ nodeId, invocation }) => (invocation === "" ? `node "${nodeId}"` : `node "${nodeId}" (invocation "${invocation}")`));
  const which = named.length === 1 ? named[0]! : `one of ${named.join(", ")}`;
  return `${which} was executing at each of the last ${watch.crashes} crashes of the run's worker; the run is not tried again`;
}

function sorted(invocations: readonly Invocation[]): Invocation[] {
  return [...invocations].sort((a, b) => a.nodeId.localeCompare(b.nodeId) || a.invocation.localeCompare(b.invocation));
}
