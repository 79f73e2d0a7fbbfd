import type { RunEvent } from "@weft/engine";

const MAX_TEXT = 120;

/** One readable line per event for the terminal (stderr), or null for events not worth a line. */
export function formatProgress(event: RunEvent, startedAt: number): string | null {
  const at = `[${((Date.parse(event.at) - startedAt) / 1000).toFixed(1).padStart(5)}s]`;
  switch (event.type) {
    case "RUN_STARTED":
      return `${at} run ${event.runId} started (${event.nodeIds.length} nodes)`;
    case "NODE_STARTED":
      return `${at} ▶ ${event.nodeId} (${event.nodeType}) started`;
    case "NODE_COMPLETED":
      return `${at} ✓ ${event.nodeId} completed: ${shorten(event.description)}`;
    case "NODE_FAILED":
      return `${at} ✗ ${event.nodeId} failed: ${event.error.code}: ${event.error.message}`;
    case "NODE_SKIPPED":
      return `${at} – ${event.nodeId} skipped (${event.reason}${event.blockedBy ? ` after ${event.blockedBy}` : ""})`;
    case "WARNING":
      return `${at} ! ${event.nodeId ? `${event.nodeId}: ` : ""}${event.code}: ${event.message}`;
    case "RUN_COMPLETED":
      return `${at} run completed; ${event.usage.totalTokens} tokens`;
    case "RUN_FAILED":
      return `${at} run failed: ${event.error.code}: ${event.error.message}`;
    case "RUN_CANCELLED":
      return `${at} run cancelled: ${event.reason}`;
    case "NODE_TOKEN":
    case "NODE_DESCRIPTION":
      return null;
  }
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= MAX_TEXT ? line : `${line.slice(0, MAX_TEXT - 1)}…`;
}
