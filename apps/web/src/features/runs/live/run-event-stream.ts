import { print } from "graphql";
import type { RunEventFieldsFragment } from "@/gql/graphql";
import type { SharedSocket } from "@/lib/shared-socket";
import { RunEventsSubscription } from "../runs.operations";
import { receiveEvent, type EventSequenceState } from "./event-sequence.reducer";
import { startResumableStream, type StreamStatus } from "./resumable-stream";
import type { AgentEventFields } from "./agent-event.type";
import type { PipelineEventFields } from "./pipeline-event.type";
import type { LiveEvent } from "./run-projection";

/** How the stream stands, for the page's indicator. */
export interface RunStreamState {
  status: StreamStatus | "idle";
  attempt: number;
  /** Why the server refused the subscription (an unknown run, a revoked key); retrying will not help. */
  error: string | null;
}

export interface RunEventStreamOptions {
  runId: string;
  /** What the page already has: the stream asks for the events after its `lastSeq`. */
  from: EventSequenceState<LiveEvent>;
  /** Every change of the sequence (events applied, held back or dropped as repeats). */
  onChange: (sequence: EventSequenceState<LiveEvent>) => void;
  onStream: (stream: RunStreamState) => void;
  /** Delay before the stream's own resubscription n (after the server completed or failed it). */
  backoffMs?: (attempt: number) => number;
}

const QUERY = print(RunEventsSubscription);
const TERMINAL: ReadonlySet<string> = new Set(["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"]);

/** True once the run's last event has been applied (everything before it has, then, too). */
export function hasRunEnded(sequence: EventSequenceState<LiveEvent>): boolean {
  const last = sequence.events[sequence.events.length - 1];
  return last !== undefined && TERMINAL.has(last.type);
}

/** The fields a LiveEvent has, each null unless the event's kind sets it. */
const NO_FIELDS: Omit<LiveEvent, "seq" | "type" | "at" | "nodeId"> = {
  nodeIds: null,
  description: null,
  output: null,
  text: null,
  code: null,
  reason: null,
  error: null,
  attempt: null,
  pipeline: null,
  agent: null,
};

/** One received event for the live views, read from its kind's own fields (`__typename`). */
export function toLiveEvent(raw: RunEventFieldsFragment): LiveEvent {
  return { seq: raw.seq, type: raw.type, at: String(raw.at), nodeId: raw.nodeId ?? null, ...NO_FIELDS, ...kindFields(raw) };
}

function kindFields(raw: RunEventFieldsFragment): Partial<LiveEvent> {
  switch (raw.__typename) {
    case "RunStartedEvent":
      return { nodeIds: raw.nodeIds ?? null };
    case "RunResumedEvent":
      return { attempt: raw.attempt };
    case "NodeTokenEvent":
      return { text: raw.text, pipeline: pipelineFields(raw.invocation) };
    case "NodeDescriptionEvent":
      return { description: raw.description, pipeline: pipelineFields(raw.invocation) };
    case "NodeCompletedEvent":
      return { description: raw.description, output: raw.output, pipeline: pipelineFields(raw.invocation, { value: raw.value ?? null }) };
    case "NodeFailedEvent":
      return { error: raw.error, pipeline: pipelineFields(raw.invocation) };
    case "NodeSkippedEvent":
      return { reason: raw.reason, pipeline: pipelineFields(raw.invocation) };
    case "WarningEvent":
      // A node's warning names its execution.
      return { code: raw.code, text: raw.message, pipeline: raw.invocation === null ? null : pipelineFields(raw.invocation) };
    case "BranchTakenEvent":
      return { pipeline: pipelineFields(raw.invocation, { ports: raw.ports, skipped: raw.skipped }) };
    case "LoopIterationEvent":
      return { pipeline: pipelineFields(raw.invocation, { loopId: raw.loopId, iteration: raw.iteration, max: raw.max, feedback: raw.feedback }) };
    case "LoopExhaustedEvent":
      return { pipeline: pipelineFields(raw.invocation, { loopId: raw.loopId, max: raw.max, exit: raw.exit }) };
    case "MapStartedEvent":
      return { pipeline: pipelineFields(raw.invocation, { items: raw.items }) };
    case "MapItemCompletedEvent":
      return { pipeline: pipelineFields(raw.invocation, { index: raw.index }) };
    case "CacheHitEvent":
      return { pipeline: pipelineFields(raw.invocation, { similarity: raw.similarity }) };
    case "AgentStepEvent":
      return { pipeline: pipelineFields(raw.invocation), agent: agentFields({ step: raw.step, text: raw.text ?? null, finishReason: raw.finishReason ?? null, usage: raw.usage, calls: raw.calls }) };
    case "ToolCalledEvent":
      return { pipeline: pipelineFields(raw.invocation), agent: agentFields({ callId: raw.callId, tool: raw.tool, arguments: raw.arguments ?? null }) };
    case "ToolResultEvent":
      return { pipeline: pipelineFields(raw.invocation), agent: agentFields({ callId: raw.callId, tool: raw.tool, ok: raw.ok, summary: raw.summary }) };
    case "RunCompletedEvent":
      return { output: raw.result };
    case "RunFailedEvent":
      return { error: raw.error };
    case "RunCancelledEvent":
      return { reason: raw.reason };
    default:
      // NODE_STARTED, STATE_UPDATED, CACHE_MISS: an execution, nothing more.
      return "invocation" in raw ? { pipeline: pipelineFields(raw.invocation) } : {};
  }
}

/** An agent event's fields (see agent-event.type.ts), the others null. */
function agentFields(fields: Partial<AgentEventFields>): AgentEventFields {
  return { step: null, text: null, finishReason: null, usage: null, calls: [], callId: null, tool: null, arguments: null, ok: null, summary: null, ...fields };
}

/** The weft.workflow/v2 fields of an event about one execution (see pipeline-event.type.ts). */
function pipelineFields(invocation: string | null, fields: Partial<PipelineEventFields> = {}): PipelineEventFields {
  return {
    invocation: invocation ?? "",
    ports: null,
    skipped: null,
    loopId: null,
    iteration: null,
    max: null,
    feedback: null,
    exit: null,
    items: null,
    index: null,
    similarity: null,
    value: null,
    ...fields,
  };
}

/**
 * Follows one run's `runEvents` on the shared socket until its last event, each event once and in
 * order. Every (re)subscription asks for the events after the last seq applied: graphql-ws sends a
 * subscription's variables again when it reconnects, so `afterSeq` is a getter read at that moment;
 * when the server itself completes or fails the subscription before the run ended, the resumable
 * stream subscribes afresh. Either way a dropped connection loses nothing and repeats nothing.
 */
export function followRunEvents(socket: Pick<SharedSocket, "ws" | "isConnected">, options: RunEventStreamOptions): { stop: () => void } {
  const { runId, onChange } = options;
  let shown: RunStreamState | null = null;
  const onStream = (stream: RunStreamState) => {
    if (shown && shown.status === stream.status && shown.attempt === stream.attempt && shown.error === stream.error) return;
    shown = stream;
    options.onStream(stream);
  };
  let sequence = options.from;
  let ended = hasRunEnded(sequence);
  let refused = false;
  let closes = 0;
  const lastSeq = () => sequence.lastSeq;
  // The socket is shared: connected means a subscription sent now is live at once.
  const live = () => {
    closes = 0;
    onStream({ status: "live", attempt: 0, error: null });
  };
  const offConnected = socket.ws.on("connected", () => !ended && !refused && live());
  const offClosed = socket.ws.on("closed", () => {
    if (ended || refused) return;
    closes += 1;
    onStream({ status: "reconnecting", attempt: closes, error: null });
  });

  const handle = startResumableStream<LiveEvent>({
    subscribe: (_afterSeq, sink) =>
      socket.ws.subscribe<{ runEvents: RunEventFieldsFragment }>(
        {
          query: QUERY,
          variables: {
            runId,
            get afterSeq() {
              return lastSeq();
            },
          },
        },
        {
          next: (result) => {
            if (result.errors?.length) {
              refused = true;
              onStream({ status: "stopped", attempt: 0, error: result.errors.map((error) => error.message).join("; ") });
              queueMicrotask(() => stop());
            } else if (result.data?.runEvents) sink.next(toLiveEvent(result.data.runEvents));
          },
          error: sink.error,
          complete: sink.complete,
        },
      ),
    afterSeq: lastSeq,
    isFinished: () => ended,
    ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
    onValue: (event) => {
      const next = receiveEvent(sequence, event);
      if (next === sequence) return;
      sequence = next;
      onChange(sequence);
      if (!ended && hasRunEnded(sequence)) {
        ended = true;
        // After the current delivery returns: graphql-ws is still inside its message handler.
        queueMicrotask(() => stop());
      }
    },
    onStatus: (status, detail) => {
      if (refused) return;
      if (status === "connecting" || status === "reconnecting") {
        if (socket.isConnected()) live();
        else onStream({ status, attempt: detail?.attempt ?? 0, error: null });
        return;
      }
      onStream({ status: ended ? "done" : status, attempt: detail?.attempt ?? 0, error: null });
    },
  });

  function stop(): void {
    offConnected();
    offClosed();
    handle.stop();
  }
  return { stop };
}
