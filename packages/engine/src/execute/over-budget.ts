import type { RunEventDraft } from "../events/run-event.js";
import { emptyNodeDetails } from "../registry/node-failure.js";

/**
 * What an event that would take its run past WEFT_MAX_RUN_BYTES becomes: its skeleton, which says what
 * happened without the values (a failure's details are emptied, a description shortened), or nothing
 * for a streamed token. The run stops with RUN_TOO_LARGE right after; its terminal event is handled by
 * the runner (it keeps no outputs or state then).
 */
export function overBudget(event: RunEventDraft): RunEventDraft | null {
  switch (event.type) {
    case "NODE_TOKEN":
    case "NODE_DESCRIPTION":
      return null;
    case "NODE_FAILED":
      return { ...event, details: { ...emptyNodeDetails([]), startedAt: event.details.startedAt, finishedAt: event.details.finishedAt } };
    case "WARNING":
      return { ...event, message: event.message.slice(0, 200) };
    // An agent's step, its calls and their results carry the model's text and the tools' arguments: the
    // skeleton keeps who called what. The run ends RUN_TOO_LARGE, so nothing replays these records.
    case "AGENT_STEP":
      return { ...event, text: "", calls: event.calls.map((call) => ({ ...call, arguments: "" })) };
    case "TOOL_CALLED":
      return { ...event, arguments: null };
    case "TOOL_RESULT":
      return { ...event, summary: event.summary.slice(0, 200) };
    default:
      return event;
  }
}
