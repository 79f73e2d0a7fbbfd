import { importPublishedEcho, percentile, round, startApi, type ApiHarness } from "./api-harness.js";
import { machineInfo, machineLine, type MachineInfo } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * Evaluations (issue 26), through the API as clients use it, on the embedded database:
 *
 * - rows/s of an experiment: ROWS dataset rows, each an ordinary run of `in ─► g1 ─► out` (offline echo),
 *   scored by `exact` and `contains`; from sending startExperiment to the COMPLETED message of
 *   experimentProgress at a WebSocket client. One in ten rows expects another answer, so both scorers
 *   pass and fail.
 * - compareExperiments on two ROWS-row experiments of that dataset: version 1 with [exact, contains] and
 *   the draft with [exact, contains of "7"] (the same outputs judged another way, so hundreds of rows
 *   regress and some improve); the whole GraphQL request over HTTP with every row's comparison, timed
 *   COMPARE_SAMPLES times after COMPARE_WARMUP.
 *
 * - Beside them, the same ROWS runs started as plain runs (runWorkflow over HTTP, PLAIN_CLIENTS at a time:
 *   the experiments' own cap at the default WEFT_PROCESS_CONCURRENCY), to tell what a row costs on top of
 *   its run.
 *
 * Targets (issue 26): ≥ 200 rows/s; the comparison ≤ 200 ms.
 */
const ROWS = Number(process.env["WEFT_BENCH_EVAL_ROWS"] ?? 1_000);
const CONCURRENCY = 20;
const COMPARE_SAMPLES = 20;
/** Half of the default WEFT_PROCESS_CONCURRENCY (16): as many runs as experiments may hold at once. */
const PLAIN_CLIENTS = 8;
const COMPARE_WARMUP = 3;

const SCORERS_A = [{ id: "exact", type: "exact" }, { id: "contains", type: "contains" }];
const SCORERS_B = [{ id: "exact", type: "exact" }, { id: "contains", type: "contains", value: "7" }];

const START = "mutation ($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } errors { code message } } }";
const COMPARE = `query ($a: ID!, $b: ID!) { compareExperiments(a: $a, b: $b) {
  regressions improvements summaryA { scores { scorer mean passRate } } summaryB { scores { scorer mean passRate } }
  rows { rowId delta regressed improved scoresA { scorer score pass } scoresB { scorer score pass } } } }`;

async function createDataset(api: ApiHarness): Promise<string> {
  const created = await api.request<{ createDataset: { dataset: { id: string } } }>('mutation { createDataset(input: { name: "bench eval" }) { dataset { id } } }');
  const id = created.createDataset.dataset.id;
  const lines = Array.from({ length: ROWS }, (_, k) => JSON.stringify({ inputs: { in: `question ${k + 1}` }, expected: k % 10 === 9 ? `answer ${k + 1}` : `question ${k + 1}` }));
  const imported = await api.request<{ importDatasetRows: { added: number; errors: unknown[] } }>(
    "mutation ($id: ID!, $text: String!) { importDatasetRows(datasetId: $id, format: JSONL, text: $text) { added errors { code message } } }",
    { id, text: lines.join("\n") },
  );
  if (imported.importDatasetRows.added !== ROWS) throw new Error(`import refused: ${JSON.stringify(imported.importDatasetRows.errors)}`);
  return id;
}

/** Starts an experiment and waits for experimentProgress to say COMPLETED; seconds from the start's request. */
async function experiment(api: ApiHarness, input: Record<string, unknown>) {
  const client = api.ws();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const threadCpuBefore = process.threadCpuUsage();
  try {
    const payload = await api.request<{ startExperiment: { experiment: { id: string } | null; errors: unknown[] } }>(START, { input });
    const id = payload.startExperiment.experiment?.id;
    if (!id) throw new Error(`startExperiment refused: ${JSON.stringify(payload.startExperiment.errors)}`);
    const status = await new Promise<string>((resolve, reject) => {
      let last = "";
      client.subscribe<{ experimentProgress: { status: string } }>(
        { query: "subscription ($id: ID!) { experimentProgress(id: $id) { status completed failed } }", variables: { id } },
        { next: ({ data }) => (last = data?.experimentProgress.status ?? last), error: reject, complete: () => resolve(last) },
      );
    });
    if (status !== "COMPLETED") throw new Error(`experiment ended ${status}`);
    const seconds = (performance.now() - started) / 1000;
    return { id, seconds, ...cpuPer(ROWS, cpuBefore, threadCpuBefore) };
  } finally {
    await client.dispose();
  }
}

/**
 * CPU time per unit since the readings: the whole process (the API's thread, the embedded database's
 * thread, the benchmark's client), and the API's thread alone. It moves less with a shared machine's
 * load than wall time does.
 */
function cpuPer(units: number, before: NodeJS.CpuUsage, threadBefore: NodeJS.CpuUsage) {
  const cpu = process.cpuUsage(before);
  const thread = process.threadCpuUsage(threadBefore);
  return { cpuMs: round((cpu.user + cpu.system) / 1000 / units, 2), apiThreadCpuMs: round((thread.user + thread.system) / 1000 / units, 2) };
}

/** ROWS plain runs of version 1 with the rows' inputs, PLAIN_CLIENTS at a time, each awaited on runStatusChanged. */
async function plainRuns(api: ApiHarness, workflowId: string) {
  const client = api.ws();
  const waiting = new Map<string, () => void>();
  const ended = new Set<string>();
  const dispose = client.subscribe<{ runStatusChanged: { runId: string; status: string } }>(
    { query: "subscription ($w: ID) { runStatusChanged(workflowId: $w) { runId status } }", variables: { w: workflowId } },
    {
      next: ({ data }) => {
        const change = data?.runStatusChanged;
        if (!change || !["COMPLETED", "FAILED", "CANCELLED"].includes(change.status)) return;
        ended.add(change.runId);
        waiting.get(change.runId)?.();
      },
      error: (error) => console.error(error),
      complete: () => undefined,
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const threadCpuBefore = process.threadCpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: PLAIN_CLIENTS }, async () => {
      while (next < ROWS) {
        next += 1;
        const data = await api.request<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }>(
          "mutation ($id: ID!, $input: RunWorkflowInput) { runWorkflow(workflowId: $id, input: $input) { run { id } errors { code message } } }",
          { id: workflowId, input: { version: 1, inputs: [{ nodeId: "in", content: `question ${next}` }] } },
        );
        const runId = data.runWorkflow.run?.id;
        if (!runId) throw new Error(`run refused: ${JSON.stringify(data.runWorkflow.errors)}`);
        if (!ended.has(runId)) await new Promise<void>((resolve) => waiting.set(runId, resolve));
        waiting.delete(runId);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuPer(ROWS, cpuBefore, threadCpuBefore);
  dispose();
  await client.dispose();
  return { seconds, ...cpu };
}

async function compareTimes(api: ApiHarness, a: string, b: string) {
  const times: number[] = [];
  let cpuBefore = process.cpuUsage();
  let threadCpuBefore = process.threadCpuUsage();
  let shape = { rows: 0, regressions: 0, improvements: 0 };
  for (let k = 0; k < COMPARE_WARMUP + COMPARE_SAMPLES; k += 1) {
    if (k === COMPARE_WARMUP) {
      cpuBefore = process.cpuUsage();
      threadCpuBefore = process.threadCpuUsage();
    }
    const started = performance.now();
    const data = await api.request<{ compareExperiments: { rows: unknown[]; regressions: number; improvements: number } }>(COMPARE, { a, b });
    if (k >= COMPARE_WARMUP) times.push(performance.now() - started);
    shape = { rows: data.compareExperiments.rows.length, regressions: data.compareExperiments.regressions, improvements: data.compareExperiments.improvements };
  }
  times.sort((x, y) => x - y);
  return { ...shape, samples: COMPARE_SAMPLES, ...cpuPer(COMPARE_SAMPLES, cpuBefore, threadCpuBefore), p50Ms: round(percentile(times, 50), 1), p95Ms: round(percentile(times, 95), 1), maxMs: round(times.at(-1)!, 1) };
}

async function measure() {
  const api = await startApi();
  try {
    const workflowId = await importPublishedEcho(api, "bench eval");
    const datasetId = await createDataset(api);
    const base = { workflowId, datasetId, concurrency: CONCURRENCY };
    // A warm-up experiment on 1 row's worth of work is not possible (the dataset is the unit): the first
    // experiment is the measured one, as a user's first run after a start would be.
    const a = await experiment(api, { ...base, version: 1, scorers: SCORERS_A });
    const loadA = machineInfo().loadAverage;
    const b = await experiment(api, { ...base, draft: true, scorers: SCORERS_B });
    const loadB = machineInfo().loadAverage;
    const comparison = await compareTimes(api, a.id, b.id);
    const plain = await plainRuns(api, workflowId);
    const loadPlain = machineInfo().loadAverage;
    return {
      rows: ROWS,
      concurrency: CONCURRENCY,
      experiments: [
        { what: "version 1, exact + contains", seconds: round(a.seconds, 2), rowsPerSecond: round(ROWS / a.seconds, 1), cpuMsPerRow: a.cpuMs, apiThreadCpuMsPerRow: a.apiThreadCpuMs, load: loadA },
        { what: "draft, exact + contains of \"7\"", seconds: round(b.seconds, 2), rowsPerSecond: round(ROWS / b.seconds, 1), cpuMsPerRow: b.cpuMs, apiThreadCpuMsPerRow: b.apiThreadCpuMs, load: loadB },
      ],
      plainRuns: [
        { what: `the same runs, plain (runWorkflow, ${PLAIN_CLIENTS} at a time)`, seconds: round(plain.seconds, 2), rowsPerSecond: round(ROWS / plain.seconds, 1), cpuMsPerRow: plain.cpuMs, apiThreadCpuMsPerRow: plain.apiThreadCpuMs, load: loadPlain },
      ],
      comparison: { ...comparison, load: machineInfo().loadAverage },
    };
  } finally {
    await api.close();
  }
}

export async function run(): Promise<unknown> {
  const measured = await measure();
  const machine = machineInfo();
  const result = { machine, ...measured, targets: { rowsPerSecond: 200, compareMs: 200 } };
  console.log(JSON.stringify(result, null, 2));
  writeResult("eval", result);
  writeDocSection("eval", docSection(machine, measured));
  return result;
}

function docSection(machine: MachineInfo, measured: Awaited<ReturnType<typeof measure>>): string {
  const met = (ok: boolean) => (ok ? "yes" : "no");
  const line = (e: (typeof measured.experiments)[number], verdict: string) => `| ${e.what} | ${e.seconds} s | **${e.rowsPerSecond}** | ${verdict} | ${e.cpuMsPerRow} ms | ${e.apiThreadCpuMsPerRow} ms | ${e.load} |`;
  const rows = [...measured.experiments.map((e) => line(e, met(e.rowsPerSecond >= 200))), ...measured.plainRuns.map((e) => line(e, "—"))].join("\n");
  const c = measured.comparison;
  return `## Evaluations: experiment rows/s and compareExperiments (eval)

\`bench/src/eval.bench.ts\`, through the API as clients use it, on the embedded database (PGlite), default process settings
(\`WEFT_PROCESS_CONCURRENCY\` 16, so experiments hold at most 8 runs at once whatever their concurrency; each asked for ${measured.concurrency}).
A ${measured.rows.toLocaleString("en")}-row dataset (imported as JSONL in one call); each row an ordinary run of \`in → g1 → out\` on the offline echo
model, scored by \`exact\` and \`contains\`; from sending \`startExperiment\` to the COMPLETED message of \`experimentProgress\`.
"CPU per row" is the process's CPU time (API, embedded database on its own thread, the benchmark's client) over the rows: it moves
less with the load than rows/s do.

| experiment | time | rows (runs)/s | ≥ 200 rows/s | CPU per row | of it, the API's thread | load |
|---|---:|---:|---|---:|---:|---:|
${rows}

\`compareExperiments\` of those two ${measured.rows.toLocaleString("en")}-row experiments (${c.rows} rows compared, ${c.regressions} regressions, ${c.improvements} improvements),
the whole GraphQL request over HTTP with every row's scores, ${c.samples} times after ${COMPARE_WARMUP} of warm-up: p50 **${c.p50Ms} ms**, p95 ${c.p95Ms} ms,
max ${c.maxMs} ms (load ${c.load}); CPU ${c.cpuMs} ms a comparison (${c.apiThreadCpuMs} ms on the API's thread); target ≤ 200 ms: ${met(c.p95Ms <= 200)} (p95).

Machine: ${machineLine(machine)} (load average ${machine.loadAverage} at the end). The machine is shared with other engineers' builds and tests:
figures move with its load. Raw figures: \`bench/results/eval.json\`.`;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
