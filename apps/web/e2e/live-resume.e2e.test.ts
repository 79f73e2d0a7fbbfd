import { createClient, type Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialEventSequence, receiveEvent, type EventSequenceState } from "../src/features/runs/live/event-sequence.reducer.js";
import { startResumableStream, type StreamSink } from "../src/features/runs/live/resumable-stream.js";
import { startApi, type ApiServer } from "./harness/weft-stack.js";

/**
 * The run page's live stream against the real API over a real WebSocket: the socket is cut twice
 * while the run goes on, and the page's resume logic must end with every event exactly once.
 *
 *   question ──▶ draft (offline echo, 400 ms) ──▶ check (offline echo, 400 ms) ──▶ answer
 */

interface WireEvent {
  seq: number;
  type: string;
  nodeId: string | null;
}

const WORKFLOW = {
  format: "weft.workflow/v1",
  name: "Resume test",
  prompts: { generation: "{input_data}\n{output_format}", ensemble: "{input_data}\n{output_format}", validation: "{input_data}\n{output_format}" },
  outputFormat: "JSON with description and output",
  nodes: [
    { id: "question", type: "input", content: "Which weave makes diagonal ribs?" },
    { id: "draft", type: "generation", provider: "offline", model: "echo", params: { delayMs: 400 } },
    { id: "check", type: "validation", provider: "offline", model: "echo", params: { delayMs: 400 } },
    { id: "answer", type: "output" },
  ],
  edges: [
    { source: "question", target: "draft" },
    { source: "draft", target: "check" },
    { source: "check", target: "answer" },
  ],
};

const RUN_EVENTS = `subscription ($runId: ID!, $afterSeq: Int!) {
  runEvents(runId: $runId, afterSeq: $afterSeq) { seq type nodeId }
}`;

let api: ApiServer;

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${api.apiUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (!body.data) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

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

    const ws: Client = createClient({ url: `${api.apiUrl.replace("http", "ws")}/graphql`, lazy: true, retryAttempts: 0 });
    let state: EventSequenceState<WireEvent> = initialEventSequence<WireEvent>();
    const subscribedAfter: number[] = [];
    const drops: number[] = [];
    let finished = false;

    await new Promise<void>((resolve, reject) => {
      const handle = startResumableStream<WireEvent>({
        subscribe: (afterSeq, sink: StreamSink<WireEvent>) => {
          subscribedAfter.push(afterSeq);
          return ws.subscribe<{ runEvents: WireEvent }>(
            { query: RUN_EVENTS, variables: { runId, afterSeq } },
            {
              next: (result) => (result.data ? sink.next(result.data.runEvents) : reject(new Error(JSON.stringify(result.errors)))),
              error: sink.error,
              complete: sink.complete,
            },
          );
        },
        afterSeq: () => state.lastSeq,
        isFinished: () => finished,
        // Long enough that the run moves on while the client is away, so the replay has work to do.
        backoffMs: () => 500,
        onValue: (event) => {
          state = receiveEvent(state, event);
          // Cut the socket right after each model node starts: its completion happens while away.
          if (event.type === "NODE_STARTED" && event.nodeId !== "question" && event.nodeId !== "answer") {
            // Events that came in the same network read are applied before the microtask runs: the
            // drop happens after the last of them, and the resubscription starts from there.
            queueMicrotask(() => {
              drops.push(state.lastSeq);
              ws.terminate();
            });
          }
          if (["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"].includes(event.type)) {
            finished = true;
            handle.stop();
            resolve();
          }
        },
      });
    });
    await ws.dispose();

    const stored = await graphql<{ run: { status: string; events: WireEvent[] } }>(
      "query ($id: ID!) { run(id: $id) { status events { seq type nodeId } } }",
      { id: runId },
    );
    expect(stored.run.status).toBe("COMPLETED");
    expect(drops).toHaveLength(2);
    // One subscription at the start, then one per drop, each from the last seq applied before it.
    expect(subscribedAfter).toEqual([0, ...drops]);
    expect(state.duplicates).toBe(0);
    expect(state.pending.size).toBe(0);
    expect(state.events.map((e) => [e.seq, e.type, e.nodeId])).toEqual(stored.run.events.map((e) => [e.seq, e.type, e.nodeId]));
    expect(state.events.map((e) => e.seq)).toEqual(stored.run.events.map((_, i) => i + 1));
  });
});
