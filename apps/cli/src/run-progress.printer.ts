import type { RunEvent } from "@weft/engine";

const MAX_TEXT = 120;

/** One readable line per event for the terminal (stderr), or null for events not worth a line. */
export function formatProgress(event: RunEvent, startedAt: number): string | null {
  const at = `[${((Date.parse(event.at) - startedAt) / 1000).toFixed(1).padStart(5)}s]`;
  const line = describe(event);
  return line === null ? null : `${at} ${line}`;
}

/** `draft`, or `draft@regen#2` for a node's later invocations (SPEC-V2 §4). */
function who(nodeId: string, invocation: string | undefined): string {
  return invocation ? `${nodeId}@${invocation}` : nodeId;
}

function describe(event: RunEvent): string | null {
  switch (event.type) {
    case "RUN_STARTED":
      return `run ${event.runId} started (${event.nodeIds.length} nodes)`;
    case "RUN_RESUMED":
      return `run ${event.runId} resumed (attempt ${event.attempt})`;
    case "NODE_STARTED":
      return `▶ ${who(event.nodeId, event.invocation)} (${event.nodeType}) started`;
    case "NODE_COMPLETED":
      return `✓ ${who(event.nodeId, event.invocation)} completed: ${shorten(event.description)}`;
    case "NODE_FAILED":
      return `✗ ${who(event.nodeId, event.invocation)} failed: ${event.error.code}: ${event.error.message}`;
    case "NODE_SKIPPED":
      return `– ${who(event.nodeId, event.invocation)} skipped (${event.reason}${event.blockedBy ? ` after ${event.blockedBy}` : ""})`;
    case "WARNING":
      return `! ${event.nodeId ? `${who(event.nodeId, event.invocation)}: ` : ""}${event.code}: ${event.message}`;
    case "BRANCH_TAKEN":
      return `↳ ${who(event.nodeId, event.invocation)} took ${event.ports.join(", ")}`;
    case "LOOP_ITERATION":
      return `↻ loop ${event.loopId} iteration ${event.iteration} of ${event.max}${event.feedback ? `: ${shorten(event.feedback)}` : ""}`;
    case "LOOP_EXHAUSTED":
      return `! loop ${event.loopId} exhausted after ${event.max} iterations at ${who(event.nodeId, event.invocation)}${event.exit ? `; took ${event.exit}` : ""}`;
    case "MAP_STARTED":
      return `⇉ ${who(event.nodeId, event.invocation)} maps ${event.items} items`;
    case "MAP_ITEM_COMPLETED":
      return `  ${who(event.nodeId, event.invocation)} item ${event.index} done`;
    case "STATE_UPDATED":
      return `  state ${event.channel} updated by ${who(event.nodeId, event.invocation)}`;
    case "CACHE_HIT":
      return `  ${who(event.nodeId, event.invocation)} cache hit (similarity ${event.similarity.toFixed(3)})`;
    case "CACHE_MISS":
      return `  ${who(event.nodeId, event.invocation)} cache miss`;
    case "NODE_WAITING":
      return `⏸ ${who(event.nodeId, event.invocation)} waits for a person: ${shorten(event.title)} (${event.actions.map((action) => action.id).join(" / ")})`;
    case "HUMAN_TASK_COMPLETED":
      return `  ${who(event.nodeId, event.invocation)} ${event.expired ? "task expired" : `answered by ${event.by ?? "someone"}`}: ${event.action ?? "no action"}`;
    case "RUN_WAITING":
      return `run waits for ${event.taskIds.length} task(s)`;
    case "AGENT_STEP":
      return `  ${who(event.nodeId, event.invocation)} step ${event.step}: ${event.calls.length > 0 ? `calls ${event.calls.map((call) => call.tool).join(", ")}` : "answers"}`;
    case "TOOL_CALLED":
      return `  → ${who(event.nodeId, event.invocation)} ${event.tool} ${shorten(JSON.stringify(event.arguments))}`;
    case "TOOL_RESULT":
      return `  ${event.ok ? "←" : "✗"} ${who(event.nodeId, event.invocation)} ${event.tool}: ${shorten(event.summary)}`;
    case "RUN_COMPLETED":
      return `run completed; ${event.usage.totalTokens} tokens`;
    case "RUN_FAILED":
      return `run failed: ${event.error.code}: ${event.error.message}`;
    case "RUN_CANCELLED":
      return `run cancelled: ${event.reason}`;
    case "NODE_TOKEN":
    case "NODE_DESCRIPTION":
      return null;
  }
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= MAX_TEXT ? line : `${line.slice(0, MAX_TEXT - 1)}…`;
}
