import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { MistralMockServer, OpenAiMockServer, startHttpTestServer, TavilyMockServer } from "@weft/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start, weft } from "./testing/cli-process.js";

const PROMPTS = { generation: "{input_data}\n{output_format}", ensemble: "{input_data}\n{output_format}", validation: "{input_data}\n{output_format}" };

/** A weft.workflow/v1 document from nodes and `a->b` arrows. */
function document(nodes: Record<string, unknown>[], arrows: string[]): Record<string, unknown> {
  const edges = arrows.map((arrow) => {
    const [source, target] = arrow.split("->");
    return { id: arrow, source, target };
  });
  return { format: "weft.workflow/v1", name: "test", prompts: PROMPTS, outputFormat: "JSON", nodes, edges };
}

const input = (id: string, content = "hello") => ({ id, type: "input", content });
const model = (id: string, type: string, extra: Record<string, unknown> = {}) => ({ id, type, provider: "offline", model: "echo", ...extra });
const output = (id: string) => ({ id, type: "output" });

let dir: string;
let counter = 0;

async function file(content: unknown): Promise<string> {
  counter += 1;
  const path = join(dir, `workflow-${counter}.json`);
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-cli-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("weft validate", () => {
  it("exits 0 and prints valid for a workflow that keeps every rule", async () => {
    // i1 ─► g1 ─► o1
    const path = await file(document([input("i1"), model("g1", "generation"), output("o1")], ["i1->g1", "g1->o1"]));
    const result = await weft(["validate", path]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ valid: true, violations: [] });
  });

  it("exits 1 and lists every violation with its nodes and edges", async () => {
    // i1 ─► e1 ─► g1 ─► o1     i2
    const nodes = [input("i1"), input("i2"), model("e1", "ensemble"), model("g1", "generation"), output("o1")];
    const result = await weft(["validate", await file(document(nodes, ["i1->e1", "e1->g1", "g1->o1"]))]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      violations: [
        {
          code: "TYPE_PAIR_FORBIDDEN",
          message: 'generation node "g1" takes only input nodes as pre-nodes; "e1" is an ensemble node',
          nodeIds: ["e1", "g1"],
          edges: [{ id: "e1->g1", source: "e1", target: "g1" }],
        },
        { code: "MISSING_POST", message: 'input node "i2" needs at least 1 post-node; its output goes nowhere', nodeIds: ["i2"], edges: [] },
      ],
    });
  });

  it("reports MODEL_UNAVAILABLE for Mistral nodes unless MISTRAL_API_KEY is set", async () => {
    // i1 ─► g1 (mistral) ─► o1
    const g1 = { id: "g1", type: "generation", provider: "mistral", model: "mistral-small-latest" };
    const path = await file(document([input("i1"), g1, output("o1")], ["i1->g1", "g1->o1"]));
    const without = await weft(["validate", path]);
    expect(without.code).toBe(1);
    expect(JSON.parse(without.stdout).violations.map((v: { code: string }) => v.code)).toEqual(["MODEL_UNAVAILABLE"]);
    expect((await weft(["validate", path], { MISTRAL_API_KEY: "test-key" })).code).toBe(0);
  });

  it("exits 2 with the offending path for a malformed document", async () => {
    const path = await file(document([input("i1"), { id: "r1", type: "router" }, output("o1")], ["i1->o1"]));
    const result = await weft(["validate", path]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      error: {
        code: "UNKNOWN_NODE_TYPE",
        message: 'nodes[1].type: unknown node type "router"; known types: input, generation, ensemble, validation, output',
        path: "nodes[1].type",
        issues: [{ code: "UNKNOWN_NODE_TYPE", path: "nodes[1].type", message: 'unknown node type "router"; known types: input, generation, ensemble, validation, output' }],
      },
    });
  });

  it("exits 2 for a file that is not JSON and for a file that does not exist", async () => {
    const notJson = await weft(["validate", await file("{ nodes: [")]);
    expect(notJson.code).toBe(2);
    expect(JSON.parse(notJson.stdout).error.code).toBe("DOCUMENT_NOT_JSON");
    const missing = await weft(["validate", join(dir, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error).toMatchObject({ code: "FILE_UNREADABLE" });
  });

  it("exits 2 with the usage text for a wrong command line or environment", async () => {
    const unknown = await weft(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect((await weft(["validate"])).code).toBe(2);
    const badEnv = await weft(["validate", join(dir, "x.json")], { WEFT_CONCURRENCY: "many" });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("WEFT_CONCURRENCY");
  });
});

describe("weft run", () => {
  it("prints the result on stdout and a progress log on stderr, exit 0", async () => {
    // i1 ─► g1 ─► o1
    const path = await file(document([input("i1", "a short text"), model("g1", "generation"), output("o1")], ["i1->g1", "g1->o1"]));
    const result = await weft(["run", path]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("a short text\n");
    expect(result.stderr).toMatch(/✓ g1 completed/);
    expect(result.stderr).toMatch(/run completed/);
  });

  it("with --input sets every input node and with --json prints one event per line", async () => {
    // i1 ─► g1 ─► e1 ─► o1
    // i2 ────────┘
    const nodes = [input("i1", "x"), input("i2", "y"), model("g1", "generation"), model("e1", "ensemble"), output("o1")];
    const path = await file(document(nodes, ["i1->g1", "g1->e1", "i2->e1", "e1->o1"]));
    const result = await weft(["run", path, "--input", "same", "--json"], { WEFT_CONCURRENCY: "1" });
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; seq: number; result?: string });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, k) => k + 1));
    expect(events[0]?.type).toBe("RUN_STARTED");
    expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", result: "same\n\nsame" });
  });

  it("exits 1 when a node fails, naming it", async () => {
    // i1 ─► g1 (invalid-json) ─► o1
    const path = await file(document([input("i1"), model("g1", "generation", { model: "invalid-json" }), output("o1")], ["i1->g1", "g1->o1"]));
    const result = await weft(["run", path]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/✗ g1 failed/);
    expect(result.stderr).toMatch(/run failed/);
  });

  it("exits 2 without running a workflow that breaks a rule", async () => {
    // i1 ─► o1     o2
    const path = await file(document([input("i1"), output("o1"), output("o2")], ["i1->o1"]));
    const result = await weft(["run", path, "--json"]);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout);
    expect(report.valid).toBe(false);
    expect(report.violations.map((v: { code: string }) => v.code)).toEqual(["MISSING_PRE", "OUTPUT_UNIQUE"]);
    const malformed = await weft(["run", await file("[]")]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("FIELD_INVALID");
  });

  it("cancels the run on SIGINT and exits 130", async () => {
    // i1 ─► g1 (waits 60 s) ─► o1
    const slow = model("g1", "generation", { params: { delayMs: 60_000 } });
    const child = start(["run", await file(document([input("i1"), slow, output("o1")], ["i1->g1", "g1->o1"])), "--json"]);
    const lines: { type: string; nodeId?: string }[] = [];
    const exited = new Promise<number | null>((done) => child.on("close", done));
    for await (const line of createInterface({ input: child.stdout })) {
      const event = JSON.parse(line) as { type: string; nodeId?: string };
      lines.push(event);
      if (event.type === "NODE_STARTED" && event.nodeId === "g1") child.kill("SIGINT");
    }
    expect(await exited).toBe(130);
    expect(lines.at(-1)).toMatchObject({ type: "RUN_CANCELLED" });
  });

  it("stops quietly with exit 0 when the reader closes stdout early", async () => {
    // i1 ─► g1 (waits 2 s) ─► o1, read until the first event only (like `| head -1`)
    const slow = model("g1", "generation", { params: { delayMs: 2_000 } });
    const child = start(["run", await file(document([input("i1"), slow, output("o1")], ["i1->g1", "g1->o1"])), "--json"]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on("close", done));
    child.stdout.once("data", () => child.stdout.destroy());
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  });

  it("runs Mistral nodes through the Mistral provider when MISTRAL_API_KEY is set", async () => {
    // i1 ─► g1 (mistral) ─► o1, against a local server speaking Mistral's protocol
    const mock = await MistralMockServer.start({ apiKey: "test-key" });
    try {
      mock.enqueueChat({ kind: "reply", text: '{"description": "answered", "output": "forty-two"}' });
      const g1 = { id: "g1", type: "generation", provider: "mistral", model: "mistral-small-latest" };
      const path = await file(document([input("i1", "question"), g1, output("o1")], ["i1->g1", "g1->o1"]));
      const result = await weft(["run", path], { MISTRAL_API_KEY: "test-key", MISTRAL_SERVER_URL: mock.url });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("forty-two\n");
      expect(mock.requests.filter((request) => request.path === "/v1/chat/completions")).toHaveLength(1);
    } finally {
      await mock.stop();
    }
  });

  it("runs nodes on a named OpenAI-compatible endpoint of WEFT_PROVIDERS_FILE, and refuses a secret reference there", async () => {
    // i1 ─► g1 (local, an OpenAI-compatible server) ─► o1
    const mock = await OpenAiMockServer.start();
    try {
      mock.enqueueChat({ kind: "reply", text: '{"description": "answered", "output": "forty-two"}' });
      const g1 = { id: "g1", type: "generation", provider: "local", model: "llama3.1:8b" };
      const path = await file(document([input("i1", "question"), g1, output("o1")], ["i1->g1", "g1->o1"]));
      const endpoint = { kind: "openai", baseUrl: mock.baseURL, models: [{ id: "llama3.1:8b" }] };
      const providers = await file({ local: endpoint });
      const result = await weft(["run", path], { WEFT_PROVIDERS_FILE: providers });
      expect(result).toMatchObject({ code: 0, stdout: "forty-two\n" });
      const secret = await file({ local: { ...endpoint, apiKey: "{secret.LOCAL_KEY}" } });
      const refused = await weft(["run", path], { WEFT_PROVIDERS_FILE: secret });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('provider "local" names the secret LOCAL_KEY');
    } finally {
      await mock.stop();
    }
  });

  it("runs web_search nodes on the offline corpus, and on Tavily when TAVILY_API_KEY is set", async () => {
    // q ─► web (web_search) ─► out
    const pipelineDocument = (provider: string) => ({
      format: "weft.workflow/v2",
      name: "web",
      nodes: [{ id: "q", type: "input", content: "광주 양동시장과 대인시장 야시장" }, { id: "web", type: "web_search", provider, maxResults: 1 }, { id: "out", type: "output" }],
      edges: [
        { source: "q", target: "web" },
        { source: "web", target: "out" },
      ],
    });
    const offline = await weft(["run", await file(pipelineDocument("offline"))]);
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout)).toEqual([expect.objectContaining({ url: "https://gwangju-guide.example/traditional-markets", provider: "offline" })]);
    const tavilyPath = await file(pipelineDocument("tavily"));
    expect((await weft(["run", tavilyPath])).code).toBe(1);
    const mock = await TavilyMockServer.start({ apiKey: "tvly-cli" });
    try {
      const tavily = await weft(["run", tavilyPath], { TAVILY_API_KEY: "tvly-cli", TAVILY_SERVER_URL: mock.url });
      expect(tavily.code).toBe(0);
      expect(JSON.parse(tavily.stdout)).toEqual([expect.objectContaining({ provider: "tavily", url: expect.stringMatching(/^https:/) })]);
      expect(mock.requests).toHaveLength(1);
    } finally {
      await mock.stop();
    }
  });

  it("runs http nodes through the destination guard: loopback refused unless WEFT_HTTP_ALLOW allows it", async () => {
    const server = await startHttpTestServer();
    try {
      // q ─► call (http) ─[ok]─► out
      const path = await file({
        format: "weft.workflow/v2",
        name: "http",
        nodes: [{ id: "q", type: "input", content: "weft" }, { id: "call", type: "http", url: `${server.origin}/echo?q={input}` }, { id: "out", type: "output" }],
        edges: [
          { source: "q", target: "call" },
          { source: "call", sourcePort: "ok", target: "out" },
        ],
      });
      const refused = await weft(["run", path]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("HTTP_DESTINATION_FORBIDDEN");
      expect(server.received).toEqual([]);
      const allowed = await weft(["run", path], { WEFT_HTTP_ALLOW: "127.0.0.1" });
      expect(allowed.code).toBe(0);
      expect(JSON.parse(allowed.stdout)).toMatchObject({ status: 200, body: { path: "/echo?q=weft" } });
      expect((await weft(["run", path], { WEFT_HTTP_ALLOW: "not a host" })).code).toBe(2);
    } finally {
      await server.stop();
    }
  });
});
