import { createHmac } from "node:crypto";
import { importPublishedEcho, percentile, round, startApi } from "./api-harness.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * Webhook → run QUEUED: signed calls to POST /hooks/<id> sent open-loop at RATE per second (one every
 * 1000/RATE ms, whatever the answers do) to the embedded API; each latency is from sending the call to
 * its 202 {runId} — the run is stored QUEUED by then. The runs then execute (offline echo), as they would.
 * Target (issue 27): p99 ≤ 20 ms at 100 requests/s.
 *
 *   in ──▶ g1 (offline echo) ──▶ out        (published; the webhook maps body.text to `in`)
 */
const RATE = 100;
const WARM_UP_S = 5;
const MEASURE_S = 30;

export async function run(): Promise<unknown> {
  const api = await startApi({ env: { WEFT_PROCESS_CONCURRENCY: "32" } });
  try {
    const workflowId = await importPublishedEcho(api, "webhook bench");
    const created = await api.request<{ createWebhookTrigger: { url: string; secret: string } }>(
      'mutation ($id: ID!) { createWebhookTrigger(workflowId: $id, input: { inputs: [{ nodeId: "in", from: "body.text" }] }) { url secret } }',
      { id: workflowId },
    );
    const { url, secret } = created.createWebhookTrigger;
    const call = async (index: number): Promise<{ ms: number; ok: boolean }> => {
      const body = JSON.stringify({ text: `order ${index}` });
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      const started = performance.now();
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-weft-signature": signature }, body });
      await response.arrayBuffer();
      return { ms: performance.now() - started, ok: response.status === 202 };
    };
    await openLoop(WARM_UP_S * RATE, call);
    const answers = await openLoop(MEASURE_S * RATE, call);
    const latencies = answers.filter((answer) => answer.ok).map((answer) => answer.ms).sort((a, b) => a - b);
    const machine = machineInfo();
    const result = {
      machine,
      rate: RATE,
      seconds: MEASURE_S,
      calls: answers.length,
      accepted: latencies.length,
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(latencies.at(-1) ?? 0),
      targetMet: percentile(latencies, 99) <= 20 && latencies.length === answers.length,
    };
    console.log(`\nwebhook: ${machineLine(machine)}\n  ${result.accepted}/${result.calls} accepted, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms`);
    writeResult("webhook", result);
    writeDocSection(
      "webhook",
      `## Webhook → run QUEUED (webhook)

Signed calls to \`POST /hooks/<id>\` sent open-loop at ${RATE} per second for ${MEASURE_S} s (after ${WARM_UP_S} s of warm-up) to the
embedded API (PGlite), each timed from sending it to its \`202 {runId}\` (the run is stored \`QUEUED\` by then);
the runs then execute with the offline echo model in the same process. Target: p99 ≤ 20 ms at 100 requests/s.

| calls | accepted | p50 | p99 | max | target met |
|---|---|---|---|---|---|
| ${result.calls} | ${result.accepted} | ${result.p50Ms} ms | ${result.p99Ms} ms | ${result.maxMs} ms | ${result.targetMet ? "yes" : "no"} |

Machine: ${machineLine(machine)} (load average ${machine.loadAverage} at the end). The machine is shared with other builds.`,
    );
    return result;
  } finally {
    await api.close();
  }
}

/** Starts `count` calls one every 1000/RATE ms, not waiting for answers (an open loop), then waits for them all. */
async function openLoop<T>(count: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const started = performance.now();
  const pending: Promise<T>[] = [];
  for (let index = 0; index < count; index += 1) {
    const due = started + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(call(index));
  }
  return Promise.all(pending);
}
