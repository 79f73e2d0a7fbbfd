import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import { RunEvents, RunWorkflow } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";

/** The value of one sample of the Prometheus text format, or 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((label) => line.includes(label))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

describeEachDatabase(
  "Prometheus metrics",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    test("GET /metrics counts runs by status, node and provider latencies, tokens and the lag of live events", async () => {
      // in ──▶ g1 (echo, 150 ms) ──▶ v1 (echo) ──▶ out, followed live by a subscriber
      api = await startTestApp(suite.db());
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->out"], { params: { delayMs: 150 } }));
      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
      const ws = api.admin.ws();
      await api.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 }).ended;
      await ws.dispose();

      const response = await fetch(api.app.url.replace(/\/graphql$/, "/metrics"));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      expect(sample(text, "weft_runs", { status: "COMPLETED" })).toBe(1);
      expect(sample(text, "weft_runs", { status: "RUNNING" })).toBe(0);
      expect(sample(text, "weft_runs_ended_total", { status: "COMPLETED" })).toBe(1);
      expect(sample(text, "weft_node_duration_seconds_count", { node_type: "generation", status: "completed" })).toBe(1);
      expect(sample(text, "weft_provider_call_duration_seconds_count", { provider: "offline", model: "echo", outcome: "ok" })).toBe(2);
      expect(sample(text, "weft_tokens_total", { provider: "offline", kind: "prompt" })).toBeGreaterThan(0);
      expect(sample(text, "weft_event_lag_seconds_count")).toBeGreaterThan(0);
      expect(sample(text, "weft_run_queue_depth", { state: "waiting" })).toBe(0);
      expect(text).toContain("weft_process_cpu_user_seconds_total");
    });
  },
  { modes: ["embedded"] },
);
