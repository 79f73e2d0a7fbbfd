import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The real command line on `weft.workflow/v2` files, in a child process (as main.test.ts). */
const CLI_DIR = resolve(fileURLToPath(import.meta.url), "../..");
const EXAMPLE = resolve(CLI_DIR, "../../examples/retry-loop.json");

function weft(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--conditions=weft-source", "--import", "tsx", join(CLI_DIR, "src/main.ts"), ...args], {
    cwd: CLI_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-cli-v2-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** q ─► check (grade, always retry) ─[pass]─► out ; retry loops back to q's successor draft */
function looping(exit: string | null, when = "true") {
  return {
    format: "weft.workflow/v2",
    name: "loop",
    loops: [{ id: "regen", max: 2, exit }],
    nodes: [
      { id: "q", type: "input", content: "x" },
      { id: "gate", type: "switch", cases: [{ port: "go", when }] },
      { id: "draft", type: "llm", provider: "offline", model: "scripted", params: { replies: ["d1", "d2"] } },
      { id: "check", type: "grade", provider: "offline", model: "scripted", params: { replies: [{ verdict: "retry", score: 0, reason: "again" }] } },
      { id: "out", type: "output" },
    ],
    edges: [
      { source: "q", target: "gate" },
      { source: "gate", sourcePort: "go", target: "draft" },
      { source: "draft", target: "check" },
      { source: "check", sourcePort: "pass", target: "out" },
      { source: "check", sourcePort: "retry", target: "draft", loop: "regen" },
    ],
  };
}

async function file(content: unknown, name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(content));
  return path;
}

describe("weft on weft.workflow/v2 files", () => {
  it("validates the example pipeline, and reports a broken condition with its field and offset", async () => {
    expect(JSON.parse((await weft(["validate", EXAMPLE])).stdout)).toEqual({ valid: true, violations: [] });
    const broken = await weft(["validate", await file(looping("pass", "input =="), "broken.json")]);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).violations).toEqual([
      expect.objectContaining({ code: "EXPRESSION_INVALID", nodeIds: ["gate"], field: "cases[0].when", position: 8 }),
    ]);
  });

  it("runs the example offline: three drafts, the grader's feedback carried, the loop's events in --json", async () => {
    const result = await weft(["run", EXAMPLE, "--json"]);
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((event) => event.type === "LOOP_ITERATION").map((event) => [event.iteration, event.feedback])).toEqual([
      [2, "say what scatters the light"],
      [3, "name the effect"],
    ]);
    expect(events.filter((event) => event.type === "NODE_STARTED" && event.nodeId === "draft").map((event) => event.invocation)).toEqual(["", "regen#2", "regen#3"]);
    expect(events.find((event) => event.type === "BRANCH_TAKEN")).toMatchObject({ nodeId: "route", ports: ["default"] });
    expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", result: expect.stringContaining("Rayleigh scattering"), state: { drafts: expect.any(Array) } });
  });

  it("prints loop progress on stderr, exits 0 when the exhausted loop has an exit and 1 when it has none", async () => {
    const exits = await weft(["run", await file(looping("pass"), "exit.json")]);
    expect(exits.code).toBe(0);
    expect(exits.stdout).toBe("d2\n");
    expect(exits.stderr).toMatch(/↻ loop regen iteration 2 of 2: again/);
    expect(exits.stderr).toMatch(/! loop regen exhausted after 2 iterations at check@regen#2; took pass/);
    const fails = await weft(["run", await file(looping(null), "noexit.json")]);
    expect(fails.code).toBe(1);
    expect(fails.stderr).toMatch(/✗ check@regen#2 failed: LOOP_EXHAUSTED/);
  });
});
