import type { Client } from "graphql-ws";
import { percentile, round, type Request } from "./api-harness.js";

export { importWorkflow, type Request } from "./api-harness.js";

/**
 * What the human-wait benchmarks share: the approval workflow, and one latency sample — completing a
 * task → the next node's NODE_STARTED at a WebSocket client, from sending completeHumanTask (its round
 * trip included) to the event's arrival.
 *
 *   draft ─► review (human) ─[approve]─► published ─► done ─► result
 *                           └─[reject]──► rejected ──┘
 */
export const LATENCY_SAMPLES = Number(process.env["WEFT_BENCH_LATENCY_SAMPLES"] ?? 200);
export const LATENCY_WARMUP = 20;

export const APPROVAL = {
  format: "weft.workflow/v2",
  name: "bench approval",
  nodes: [
    { id: "draft", type: "input", content: "The sky is blue." },
    { id: "review", type: "human", title: "Check: {input}" },
    { id: "published", type: "template", template: "published: {input}" },
    { id: "rejected", type: "template", template: "rejected" },
    { id: "done", type: "join" },
    { id: "result", type: "output" },
  ],
  edges: [
    { source: "draft", target: "review" },
    { source: "review", sourcePort: "approve", target: "published" },
    { source: "review", sourcePort: "reject", target: "rejected" },
    { source: "published", target: "done" },
    { source: "rejected", target: "done" },
    { source: "done", target: "result" },
  ],
};

export const RUN = "mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code message } } }";
const COMPLETE = 'mutation ($id: ID!) { completeHumanTask(id: $id, input: { action: "approve" }) { errors { code } } }';
const FOLLOW = "subscription ($id: ID!) { runEvents(runId: $id, afterSeq: 0) { type ... on NodeEvent { nodeId } ... on NodeWaitingEvent { taskId } } }";

export async function startRun(request: Request, workflowId: string): Promise<string> {
  const data = await request<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }>(RUN, { id: workflowId });
  if (!data.runWorkflow.run) throw new Error(`run refused: ${JSON.stringify(data.runWorkflow.errors)}`);
  return data.runWorkflow.run.id;
}

/**
 * One sample: follows a run until it waits (the events so far are replayed first), then sends
 * completeHumanTask and times until the `published` node's NODE_STARTED arrives on the subscription.
 */
function completionToNextStart(client: Client, request: Request, runId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    let taskId: string | null = null;
    client.subscribe<{ runEvents: { type: string; nodeId?: string | null; taskId?: string } }>(
      { query: FOLLOW, variables: { id: runId } },
      {
        next: ({ data }) => {
          const event = data?.runEvents;
          if (!event) return;
          if (event.type === "NODE_WAITING") taskId = event.taskId ?? null;
          if (event.type === "RUN_WAITING" && taskId && sentAt === 0) {
            sentAt = performance.now();
            request<{ completeHumanTask: { errors: unknown[] } }>(COMPLETE, { id: taskId }).then(
              (done) => done.completeHumanTask.errors.length > 0 && reject(new Error(JSON.stringify(done.completeHumanTask.errors))),
              reject,
            );
          }
          if (event.type === "NODE_STARTED" && event.nodeId === "published") resolve(performance.now() - sentAt);
        },
        error: reject,
        complete: () => undefined,
      },
    );
  });
}

export interface Latency {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

export async function latency(client: Client, request: Request, runIds: readonly string[]): Promise<Latency> {
  const samples: number[] = [];
  for (const [index, runId] of runIds.entries()) {
    const ms = await completionToNextStart(client, request, runId);
    if (index >= LATENCY_WARMUP) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { p50Ms: round(percentile(samples, 50), 1), p99Ms: round(percentile(samples, 99), 1), maxMs: round(samples.at(-1) ?? 0, 1), samples: samples.length };
}

export function latencyRow(path: string, figure: Latency): string {
  const met = figure.p50Ms <= 20 && figure.p99Ms <= 100 ? "yes" : "no";
  return `| ${path} | ${figure.p50Ms} ms | ${figure.p99Ms} ms | ${figure.maxMs} ms | ${figure.samples} | ${met} |`;
}
