import { createNewWorkflow, stringifyWorkflow, type Workflow } from "@weft/engine";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { percentile, round, StampProvider, startApi } from "./api-harness.js";

/**
 * Node completion → the NODE_COMPLETED event received by a graphql-ws client over loopback, through the
 * whole path: engine event → database write (RunEvent row, node run, run) → event bus → runEvents
 * subscription → WebSocket. The model is a stamp provider that records when each node's answer was
 * ready; the client subtracts it from performance.now() at arrival (same process, same clock).
 *
 *   in ──▶ g1 (waits 300 ms: the subscriber attaches) ──▶ v1 ──▶ v2 ──▶ … ──▶ v60 ──▶ out
 */
const CHAIN = 60;
const RUNS = 8;

function chainWorkflow(): Workflow {
  const model = (id: string, type: string, delayMs = 0) => ({ id, type, provider: "bench", model: "stamp", params: { delayMs } });
  const validations = Array.from({ length: CHAIN }, (_, index) => model(`v${index + 1}`, "validation"));
  const ids = ["in", "g1", ...validations.map((node) => node.id), "out"];
  return {
    ...createNewWorkflow("event latency"),
    nodes: [{ id: "in", type: "input", content: "x" }, model("g1", "generation", 300), ...validations, { id: "out", type: "output", content: "" }],
    edges: ids.slice(1).map((target, index) => ({ id: `e${index + 1}`, source: ids[index]!, target })),
  };
}

export async function run(): Promise<unknown> {
  const provider = new StampProvider();
  const api = await startApi({ providers: [provider] });
  const samples: number[] = [];
  try {
    const imported = await api.request<{ importWorkflow: { workflow: { id: string } } }>(
      `mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }`,
      { document: stringifyWorkflow(chainWorkflow()) },
    );
    const workflowId = imported.importWorkflow.workflow.id;
    for (let r = 0; r < RUNS; r += 1) {
      provider.completedAt.length = 0;
      const started = await api.request<{ runWorkflow: { run: { id: string } } }>(
        `mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code } } }`,
        { id: workflowId },
      );
      const client = api.ws();
      let modelCompletions = 0;
      await new Promise<void>((resolve, reject) => {
        client.subscribe<{ runEvents: { type: string; nodeId: string | null } }>(
          { query: `subscription ($id: ID!) { runEvents(runId: $id, afterSeq: 0) { type nodeId } }`, variables: { id: started.runWorkflow.run.id } },
          {
            next: ({ data }) => {
              const event = data?.runEvents;
              if (event?.type !== "NODE_COMPLETED" || !event.nodeId || event.nodeId === "in" || event.nodeId === "out") return;
              const readyAt = provider.completedAt[modelCompletions];
              modelCompletions += 1;
              // g1 completed while the subscription was still being set up for some runs: measure v1… only.
              if (event.nodeId !== "g1" && readyAt !== undefined) samples.push(performance.now() - readyAt);
            },
            error: reject,
            complete: resolve,
          },
        );
      });
      await client.dispose();
    }
  } finally {
    await api.close();
  }
  samples.sort((a, b) => a - b);
  const machine = machineInfo();
  const result = {
    machine,
    database: "embedded (PGlite)",
    runs: RUNS,
    samples: samples.length,
    p50Ms: round(percentile(samples, 50), 3),
    p90Ms: round(percentile(samples, 90), 3),
    p99Ms: round(percentile(samples, 99), 3),
    maxMs: round(samples.at(-1) ?? Number.NaN, 3),
    goal: { p50Ms: 5, p99Ms: 20 },
  };
  console.log(`\napi-event-latency: ${machineLine(machine)}`);
  console.log(`  node completion → WebSocket client: p50 ${result.p50Ms} ms, p90 ${result.p90Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms (${samples.length} events)`);
  writeResult("api-event-latency", result);
  const met = result.p50Ms <= 5 && result.p99Ms <= 20;
  writeDocSection(
    "api-event-latency",
    `## API: node completion → event at a WebSocket client (api-event-latency)

\`bench/src/api-event-latency.bench.ts\` (run alone: \`pnpm --filter @weft/bench exec tsx --conditions=weft-source src/api-event-latency.bench.ts\`
after \`pnpm turbo run build --filter=@weft/api\`). The built API on the embedded database (PGlite in a temp directory),
a graphql-ws client over loopback subscribed to \`runEvents\`. A chain of ${CHAIN} validation nodes whose stand-in model
records when its answer is ready; events are written to the database (event rows, node runs, run) in one
statement per batch (group commit: a node's NODE_STARTED, NODE_DESCRIPTION and NODE_COMPLETED share one;
a node result closes its batch), then published, then sent. ${RUNS} runs, ${samples.length} events.

Machine: ${machineLine(machine)} (load average ${machine.loadAverage}).

| p50 | p90 | p99 | max | goal |
|---:|---:|---:|---:|---|
| ${result.p50Ms} ms | ${result.p90Ms} ms | ${result.p99Ms} ms | ${result.maxMs} ms | p50 ≤ 5 ms, p99 ≤ 20 ms: ${met ? "met" : "NOT met"} |

Raw figures: \`bench/results/api-event-latency.json\`.`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
