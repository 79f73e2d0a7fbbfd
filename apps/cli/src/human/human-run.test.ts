import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { RunEventOf } from "@weft/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft } from "../testing/cli-process.js";
import { EXAMPLES } from "../testing/template-run.js";
import { terminalAnswerer } from "./terminal-task.prompt.js";

/**
 * examples/editorial-review.json, offline:
 *
 *  topic ─► draft (llm) ─► review (human) ─[publish]─► publish ─► answer ─► result
 *             ▲──[revise, loop "revision"]──┘  └─[reject]─► rejected ─┘
 */
const TEMPLATE = join(EXAMPLES, "editorial-review.json");
const ANSWERS = join(EXAMPLES, "answers/editorial-review.json");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-human-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function answers(list: unknown): Promise<string> {
  const path = join(dir, `answers-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, typeof list === "string" ? list : JSON.stringify(list));
  return path;
}

describe("weft run with human steps", () => {
  it("answers the tasks from --answers in order: a revision with a comment, then the editor's edit is published", async () => {
    const result = await weft(["run", TEMPLATE, "--answers", ANSWERS, "--json"]);
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>);
    expect(events.filter((event) => event.type === "NODE_WAITING").map((event) => event["invocation"])).toEqual(["", "revision#2"]);
    expect(events.filter((event) => event.type === "HUMAN_TASK_COMPLETED").map((event) => event["action"])).toEqual(["revise", "publish"]);
    const end = events.at(-1) as RunEventOf<"RUN_COMPLETED">;
    expect(end.type).toBe("RUN_COMPLETED");
    expect(end.result).toMatch(/^Why the sky is blue\n\nAir molecules scatter the short \(blue\) wavelengths/);
  });

  it("without answers and without a terminal, prints the open task and exits 3", async () => {
    const result = await weft(["run", TEMPLATE]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("waiting for a person: Review the draft before it is published (node review, task ");
    expect(result.stdout).toContain("actions: publish, revise, reject");
    const json = await weft(["run", TEMPLATE, "--json"]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout.trim().split("\n").at(-1)!)).toMatchObject({ type: "RUN_WAITING", taskIds: [expect.stringMatching(/\/review$/)] });
  });

  it("stops at the task the answers do not cover, with exit 3", async () => {
    const result = await weft(["run", TEMPLATE, "--answers", await answers([{ nodeId: "review", action: "revise", comment: "again" }])]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("node review@revision#2");
  });

  it("refuses an answer whose data does not fit the form with HUMAN_INPUT_INVALID and its path, exit 2", async () => {
    const result = await weft(["run", TEMPLATE, "--answers", await answers([{ nodeId: "review", action: "publish", data: { headline: "", body: "b" } }])]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HUMAN_INPUT_INVALID: task of "review": at /headline:');
  });

  it("refuses an action the task does not offer, and a malformed answers file, exit 2", async () => {
    const unknown = await weft(["run", TEMPLATE, "--answers", await answers([{ nodeId: "review", action: "maybe" }])]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("HUMAN_ACTION_UNKNOWN");
    const malformed = await weft(["run", TEMPLATE, "--answers", await answers([{ nodeId: "review" }])]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("ANSWERS_INVALID");
    const deep = await weft(["run", TEMPLATE, "--answers", await answers(`[{"nodeId": "review", "action": "publish", "data": ${"[".repeat(100)}${"]".repeat(100)}}]`)]);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain("deeper than 64 levels");
  });
});

describe("asking on the terminal", () => {
  const task = {
    type: "NODE_WAITING",
    seq: 5,
    runId: "r",
    at: "2026-12-01T10:00:00.000Z",
    nodeId: "review",
    invocation: "",
    taskId: "r/review",
    title: "Check it",
    instructions: "Look **closely**.",
    actions: [{ id: "approve", label: "Approve" }, { id: "reject" }],
    form: { type: "object", properties: { score: { type: "integer" } }, required: ["score"] },
    input: "the draft",
    editable: false,
    assignee: "editors",
    expiresAt: null,
    onTimeout: null,
  } satisfies RunEventOf<"NODE_WAITING">;

  it("shows the task, explains an answer that does not fit, and asks again", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const typed = ["maybe", '{"score": 3}', "", "approve", '{"score": "x"}', "", "approve", '{"score": 4}', "ok"];
    let shown = "";
    // A person types each line once its question is on the screen.
    output.on("data", (chunk: Buffer) => {
      shown += chunk.toString();
      if (shown.endsWith(": ")) input.write(`${typed.shift()}\n`);
    });
    const answer = await terminalAnswerer(input, output, "ana", new AbortController().signal)(task);
    expect(answer).toMatchObject({ action: "approve", data: { score: 4 }, comment: "ok", by: "ana", expired: false });
    expect(shown).toContain("Check it  (node review, for editors)");
    expect(shown).toContain("HUMAN_ACTION_UNKNOWN");
    expect(shown).toContain("HUMAN_INPUT_INVALID");
  });

  it("gives an expiry when the task's time runs out while it is asked", async () => {
    const answer = await terminalAnswerer(new PassThrough(), new PassThrough(), "ana", new AbortController().signal)({ ...task, expiresAt: new Date(Date.now() + 50).toISOString() });
    expect(answer).toMatchObject({ action: null, expired: true, by: null });
  });
});
