import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { JsonValue } from "../../model/json-value.js";
import { fitMessages, formatTranscript, type ThreadMessage } from "../../providers/thread-history.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { configValue } from "../common/router-ports.js";
import { HISTORY_DEFAULTS, type HistoryFormat } from "./history.config.js";

/**
 * The thread's recent messages as a value for prompts (SPEC-V2 §6): the newest `maxMessages` that fit
 * `maxTokens`, oldest first, as a transcript or a list of {role, content}. Its inputs only start it.
 * A run on no thread reads an empty history, with a THREAD_UNAVAILABLE warning.
 */
export const executeHistoryNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const maxMessages = configValue<number>(node, "maxMessages", HISTORY_DEFAULTS.maxMessages);
    const maxTokens = configValue<number | null>(node, "maxTokens", null);
    const thread = context.tools.thread;
    let messages: ThreadMessage[] = [];
    if (thread) messages = fitMessages(await thread.recentMessages(maxMessages, context.signal), { maxMessages, maxTokens });
    else context.emit({ type: "WARNING", nodeId: node.id, code: "THREAD_UNAVAILABLE", message: "the run belongs to no thread: the history is empty" });
    const format = configValue<HistoryFormat>(node, "format", HISTORY_DEFAULTS.format);
    const output: JsonValue = format === "messages" ? messages.map(({ role, content }) => ({ role, content })) : formatTranscript(messages);
    return { description: `${messages.length} earlier message${messages.length === 1 ? "" : "s"} of the thread`, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};
