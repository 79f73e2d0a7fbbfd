import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../testing/database.js";
import { baseUrlOf, HealthProbe } from "../testing/health-probe.js";

/**
 * Issue 30's reproductions against a real API process (`main.ts --role all`) on the embedded database and
 * on PostgreSQL: workflows planted with a write key and started with a run key that, before the limits of
 * SPEC-V3 §1, crashed the process, broke PGlite's session or froze every request. For each one: the
 * process survives, GET /healthz answers within a second throughout (probed every 100 ms from this
 * process), the run fails with the named code, and a normal run completes afterwards.
 */
const PROCESS_MS = 180_000;
const RUN_MS = 120_000;

type Doc = Record<string, unknown>;
const edge = (source: string, target: string) => ({ source, target });
const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** q ─► <node> ─► out */
function single(name: string, node: Doc, content = "x"): Doc {
  return {
    format: "weft.workflow/v2",
    name,
    nodes: [{ id: "q", type: "input", content }, { id: "hostile", ...node }, { id: "out", type: "output" }],
    edges: [edge("q", "hostile"), edge("hostile", "out")],
  };
}

/** q ─► a0,b0 ─► a1,b1 (each joins both of the level below) ─► … ─► a24,b24 ─► end ─► out */
function joinLadder(levels: number): Doc {
  const nodes: Doc[] = [{ id: "q", type: "input", content: "x".repeat(5_000) }, { id: "a0", type: "template", template: "{input}" }, { id: "b0", type: "template", template: "{input}" }];
  const edges = [edge("q", "a0"), edge("q", "b0")];
  for (let level = 1; level <= levels; level += 1) {
    nodes.push({ id: `a${level}`, type: "join", combine: "array" }, { id: `b${level}`, type: "join", combine: "array" });
    for (const target of [`a${level}`, `b${level}`]) edges.push(edge(`a${level - 1}`, target), edge(`b${level - 1}`, target));
  }
  nodes.push({ id: "end", type: "join" }, { id: "out", type: "output" });
  edges.push(edge(`a${levels}`, "end"), edge(`b${levels}`, "end"), edge("end", "out"));
  return { format: "weft.workflow/v2", name: "join ladder", nodes, edges };
}

/** q ─► hostile (switch; its one case is `when`) ─yes─► out, ─default─► out */
function switchOn(name: string, when: string): Doc {
  return {
    format: "weft.workflow/v2",
    name,
    nodes: [{ id: "q", type: "input", content: "x" }, { id: "hostile", type: "switch", cases: [{ port: "yes", when }] }, { id: "j", type: "join" }, { id: "out", type: "output" }],
    edges: [edge("q", "hostile"), { source: "hostile", sourcePort: "yes", target: "j" }, { source: "hostile", sourcePort: "default", target: "j" }, edge("j", "out")],
  };
}
const list = (size: number) => `[${Array.from({ length: size }, (_, k) => k).join(",")}]`;

const NORMAL = single("normal", { type: "template", template: "echo: {input}" }, "hello");

describe.each(["embedded", "server"] as const)("hostile runs against a real API process (%s database)", (mode) => {
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  let api: ApiProcess;
  let probe: HealthProbe;
  let database: TestDatabase | null = null;
  let dataDir: string | null = null;
  const p99s: Record<string, number> = {};

  beforeAll(async () => {
    let env: Record<string, string>;
    if (mode === "server") {
      await acquirePostgres();
      database = await openTestDatabase("server");
      env = { DATABASE_URL: database.location };
    } else {
      dataDir = await mkdtemp(path.join(os.tmpdir(), "weft-hostile-"));
      env = { WEFT_DATA_DIR: dataDir };
    }
    api = await startApiProcess("all", { ...env, WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0", WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0" }, adminKey);
    probe = new HealthProbe(baseUrlOf(api.url));
  }, PROCESS_MS);

  afterAll(async () => {
    await probe?.stop();
    await api?.kill("SIGKILL");
    await database?.close();
    if (database) await releasePostgres();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    // The figures for the closing note of issue 30 (no assertion on speed).
    console.info(`/healthz p99 per hostile input (${mode}): ${JSON.stringify(p99s)}`);
  }, 60_000);

  async function importDocument(document: Doc): Promise<string> {
    const result = await api.admin.request<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }, unknown>(
      "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message field } } }",
      { document },
    );
    expect(result.importWorkflow.errors).toEqual([]);
    return result.importWorkflow.workflow!.id;
  }

  type RunEnd = { status: string; error: { code: string } | null; nodeRuns: Array<{ nodeId: string; status: string; error: { code: string } | null }> };

  async function runToEnd(workflowId: string, inputs: Array<{ nodeId: string; content: string }> = []): Promise<RunEnd> {
    const started = await api.admin.request<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }, unknown>(
      "mutation ($id: ID!, $input: RunWorkflowInput) { runWorkflow(workflowId: $id, input: $input) { run { id } errors { code message } } }",
      { id: workflowId, input: { inputs } },
    );
    expect(started.runWorkflow.errors).toEqual([]);
    const runId = started.runWorkflow.run!.id;
    const deadline = Date.now() + RUN_MS;
    for (;;) {
      const { run } = await api.admin.request<{ run: RunEnd }, unknown>(
        "query ($id: ID!) { run(id: $id) { status error { code } nodeRuns { nodeId status error { code } } } }",
        { id: runId },
      );
      if (run.status !== "QUEUED" && run.status !== "RUNNING") return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status} after ${RUN_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Runs a hostile document and returns the code its failed node (or the run) ended with. */
  async function hostileRun(name: string, document: Doc, inputs: Array<{ nodeId: string; content: string }> = []): Promise<{ run: RunEnd; codes: string[] }> {
    probe.reset();
    const run = await runToEnd(await importDocument(document), inputs);
    p99s[name] = Math.round(probe.quantile(0.99) * 10) / 10;
    const codes = run.nodeRuns.filter((nodeRun) => nodeRun.status === "FAILED").map((nodeRun) => nodeRun.error?.code ?? "");
    return { run, codes };
  }

  afterEach(async () => {
    // The process is alive, /healthz never hung or failed, and the database still runs a normal run.
    expect(await Promise.race([api.exited.then(() => "exited"), Promise.resolve("alive")])).toBe("alive");
    expect(probe.problems).toEqual([]);
    const normal = await runToEnd(await importDocument(NORMAL));
    expect(normal.status).toBe("COMPLETED");
    expect(probe.problems).toEqual([]);
  }, RUN_MS);

  test("a JSON template nested 5,000 deep fails VALUE_TOO_DEEP (it killed the process through JSON.stringify)", async () => {
    const { run, codes } = await hostileRun("template 5,000 deep", single("deep 5000", { type: "template", template: deepArray(5_000), json: true }));
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["VALUE_TOO_DEEP"]);
  }, RUN_MS);

  test("a JSON template nested 1,000 deep fails VALUE_TOO_DEEP (it broke PGlite's session until restart)", async () => {
    const { run, codes } = await hostileRun("template 1,000 deep", single("deep 1000", { type: "template", template: deepArray(1_000), json: true }));
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["VALUE_TOO_DEEP"]);
  }, RUN_MS);

  test("a model reply nested 5,000 deep fails VALUE_TOO_DEEP before it is parsed", async () => {
    const node = { type: "llm", provider: "offline", model: "scripted", params: { replies: [deepArray(5_000)] }, schema: { type: "array" } };
    const { run, codes } = await hostileRun("model reply 5,000 deep", single("deep reply", node));
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["VALUE_TOO_DEEP"]);
  }, RUN_MS);

  test('"{input}" written 300 times over a 200 KB input fails OUTPUT_TOO_LARGE instead of making 60 MB', async () => {
    const document = single("60 MB", { type: "template", template: "{input}".repeat(300) }, "");
    const { run, codes } = await hostileRun("60 MB template", document, [{ nodeId: "q", content: "y".repeat(200_000) }]);
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["OUTPUT_TOO_LARGE"]);
  }, RUN_MS);

  test("a CEL condition of five nested maps over 60 items (a heap bomb) fails EXPRESSION_BUDGET_EXCEEDED", async () => {
    const items = list(60);
    const when = `size(${items}.map(a, ${items}.map(b, ${items}.map(c, ${items}.map(d, ${items}.map(e, a + b + c + d + e)))))) > 0`;
    const { run, codes } = await hostileRun("CEL five nested maps", switchOn("heap bomb", when));
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["EXPRESSION_BUDGET_EXCEEDED"]);
  }, RUN_MS);

  test("a CEL condition of four nested all()s over 100 items fails EXPRESSION_BUDGET_EXCEEDED", async () => {
    const items = list(100);
    const when = `${items}.all(a, ${items}.all(b, ${items}.all(c, ${items}.all(d, a + b + c + d >= 0))))`;
    const { run, codes } = await hostileRun("CEL four nested all", switchOn("four alls", when));
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["EXPRESSION_BUDGET_EXCEEDED"]);
  }, RUN_MS);

  const REDOS = "^(a+)+$";
  const REDOS_INPUT = [{ nodeId: "q", content: `${"a".repeat(32)}!` }];

  test("a backtracking pattern in a guardrail runs in linear time (it held the thread 16.6 s)", async () => {
    const document = single("redos guardrail", { type: "guardrail", patterns: [REDOS] }, "");
    (document["edges"] as Doc[])[1] = { source: "hostile", sourcePort: "pass", target: "out" };
    const { run } = await hostileRun("ReDoS guardrail", document, REDOS_INPUT);
    expect(run.status).toBe("COMPLETED");
  }, RUN_MS);

  test("a backtracking pattern in the scripted model's params.match runs in linear time (8 s)", async () => {
    const node = { type: "llm", provider: "offline", model: "scripted", params: { replies: ["no"], match: [{ pattern: REDOS, replies: ["yes"] }] } };
    const { run } = await hostileRun("ReDoS params.match", single("redos match", node, ""), REDOS_INPUT);
    expect(run.status).toBe("COMPLETED");
  }, RUN_MS);

  test("a backtracking JSON Schema pattern is matched in linear time (7 s, twice with the repair)", async () => {
    const node = { type: "llm", provider: "offline", model: "scripted", params: { replies: [JSON.stringify(`${"a".repeat(32)}!`)] }, schema: { type: "string", pattern: REDOS } };
    const { run, codes } = await hostileRun("ReDoS JSON Schema", single("redos schema", node));
    expect(run.status).toBe("FAILED");
    expect(codes).toEqual(["SCHEMA_MISMATCH"]);
  }, RUN_MS);

  test("a backtracking pattern in CEL matches() is matched in linear time", async () => {
    const { run } = await hostileRun("ReDoS CEL matches", switchOn("redos cel", `input.matches("${REDOS}")`), REDOS_INPUT);
    expect(run.status).toBe("COMPLETED");
  }, RUN_MS);

  test("patterns RE2 cannot take are refused when the workflow is imported, with PATTERN_INVALID and the field", async () => {
    const guard = single("lookahead", { type: "guardrail", patterns: ["(?=a)"] });
    (guard["edges"] as Doc[])[1] = { source: "hostile", sourcePort: "pass", target: "out" };
    for (const [document, field] of [
      [guard, "patterns[0]"],
      [single("schema lookbehind", { type: "llm", provider: "offline", model: "scripted", params: { replies: ["x"] }, schema: { type: "string", pattern: "(?<=a)b" } }), "schema.pattern"],
      [single("match backreference", { type: "llm", provider: "offline", model: "scripted", params: { replies: ["x"], match: [{ pattern: "(a)\\1", replies: ["y"] }] } }), "params.match[0].pattern"],
      [switchOn("cel lookahead", 'input.matches("(?!a)")'), "cases[0].when"],
    ] as const) {
      const result = await api.admin.request<{ importWorkflow: { errors: Array<{ code: string; field: string | null }> } }, unknown>(
        "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message field } } }",
        { document },
      );
      expect(result.importWorkflow.errors, field).toContainEqual(expect.objectContaining({ code: "PATTERN_INVALID", field }));
    }
  }, RUN_MS);

  test("a ladder of 24 levels of two joins (output doubling per level) fails OUTPUT_TOO_LARGE", async () => {
    const { run, codes } = await hostileRun("join ladder", joinLadder(24));
    expect(run.status).toBe("FAILED");
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(["OUTPUT_TOO_LARGE"]));
  }, RUN_MS);
});
