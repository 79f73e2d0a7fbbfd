import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialEventSequence, type EventSequenceState } from "../src/features/runs/live/event-sequence.reducer.js";
import { followRunEvents, type RunStreamState } from "../src/features/runs/live/run-event-stream.js";
import type { LiveEvent } from "../src/features/runs/live/run-projection.js";
import { openSharedSocket } from "../src/lib/shared-socket.js";
import { graphqlRequest as graphqlRequestTo } from "./harness/graphql-request.js";
import { startApi, type ApiServer } from "./harness/weft-stack.js";

/**
 * The pages' live run stream (followRunEvents on the app's shared socket, as the browser runs it)
 * against the real API over a real WebSocket: the socket is cut twice while the run goes on, graphql-ws
 * reconnects and sends the subscription again, and the page must end with every event exactly once.
 *
 *   question ──▶ draft (offline echo, 400 ms) ──▶ check (offline echo, 8 s) ──▶ answer
 *
 * graphql-ws waits 1.3–4 s before it reconnects (1 s plus a random 0.3–3 s), so the draft ends
 * while the socket is away and its events come back replayed; the check must still be running when that
 * replay arrives, or the replay would carry the run to its end in one network read and the second cut
 * would come after the run (a busy machine stretches every wait).
 */

const WORKFLOW = {
  format: "weft.workflow/v1",
  name: "Resume test",
  prompts: { generation: "{input_data}\n{output_format}", ensemble: "{input_data}\n{output_format}", validation: "{input_data}\n{output_format}" },
  outputFormat: "JSON with description and output",
  nodes: [
    { id: "question", type: "input", content: "Which weave makes diagonal ribs?" },
    { id: "draft", type: "generation", provider: "offline", model: "echo", params: { delayMs: 400 } },
    { id: "check", type: "validation", provider: "offline", model: "echo", params: { delayMs: 8000 } },
    { id: "answer", type: "output" },
  ],
  edges: [
    { source: "question", target: "draft" },
    { source: "draft", target: "check" },
    { source: "check", target: "answer" },
  ],
};

/** Records the afterSeq of every runEvents subscription the socket sends. */
function recordingWebSocket(afterSeqs: number[]): typeof WebSocket {
  return class extends WebSocket {
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === "string") {
        const message = JSON.parse(data) as { type: string; payload?: { variables?: { afterSeq?: number } } };
        if (message.type === "subscribe") afterSeqs.push(message.payload?.variables?.afterSeq ?? -1);
      }
      super.send(data);
    }
  };
}

/** What the test reads back of the stored events. */
interface StoredEvent {
  seq: number;
  type: string;
  nodeId: string | null;
}

let api: ApiServer;

/** A GraphQL call from outside the browser, as another client of the same API would make it. */
const graphql = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(api.apiUrl, query, variables);

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api?.stop();
});

describe("live run stream against the real API", () => {
  it("resumes after each dropped connection from the last seq, with no event lost or repeated", async () => {
    const imported = await graphql<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
      "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
      { document: WORKFLOW },
    );
    expect(imported.importWorkflow.errors).toEqual([]);
    const workflowId = imported.importWorkflow.workflow!.id;
    const started = await graphql<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }>(
      "mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code message } } }",
      { id: workflowId },
    );
    expect(started.runWorkflow.errors).toEqual([]);
    const runId = started.runWorkflow.run!.id;

    const subscribedAfter: number[] = [];
    const socket = openSharedSocket({ url: `${api.apiUrl.replace("http", "ws")}/graphql`, webSocketImpl: recordingWebSocket(subscribedAfter) });
    let state: EventSequenceState<LiveEvent> = initialEventSequence<LiveEvent>();
    const drops: number[] = [];
    const streams: RunStreamState["status"][] = [];

    await new Promise<void>((resolve, reject) => {
      followRunEvents(socket, {
        runId,
        from: state,
        onChange: (sequence) => {
          const event = sequence.events.at(-1);
          // Cut the socket right after each model node starts: its completion happens while away.
          if (sequence.lastSeq > state.lastSeq && event?.type === "NODE_STARTED" && event.nodeId !== "question" && event.nodeId !== "answer") {
            // Events that came in the same network read are applied before the microtask runs: the
            // drop happens after the last of them, and the resubscription starts from there.
            queueMicrotask(() => {
              drops.push(state.lastSeq);
              socket.ws.terminate();
            });
          }
          state = sequence;
        },
        onStream: (stream) => {
          streams.push(stream.status);
          if (stream.error) reject(new Error(stream.error));
          if (stream.status === "done") resolve();
        },
      });
    });
    socket.dispose();

    const stored = await graphql<{ run: { status: string; events: StoredEvent[] } }>(
      "query ($id: ID!) { run(id: $id) { status events { seq type nodeId } } }",
      { id: runId },
    );
    expect(stored.run.status).toBe("COMPLETED");
    expect(drops).toHaveLength(2);
    // One subscription at the start, then one per drop (sent again by graphql-ws when it reconnects),
    // each from the last seq applied before it.
    expect(subscribedAfter).toEqual([0, ...drops]);
    expect(streams.filter((status) => status === "reconnecting")).toHaveLength(2);
    expect(state.duplicates).toBe(0);
    expect(state.pending.size).toBe(0);
    expect(state.events.map((e) => [e.seq, e.type, e.nodeId])).toEqual(stored.run.events.map((e) => [e.seq, e.type, e.nodeId]));
    expect(state.events.map((e) => e.seq)).toEqual(stored.run.events.map((_, i) => i + 1));
  });
});
