import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openThreadFile, THREAD_FILE_FORMAT } from "./thread-file.js";

const NO_LIMITS = { maxMessages: null, maxAgeSeconds: null };
const live = () => new AbortController().signal;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-thread-file-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("thread files", () => {
  it("start empty when missing, and keep a recorded turn for the next command", async () => {
    const path = join(dir, "new.json");
    const first = await openThreadFile(path, NO_LIMITS);
    expect(await first.thread.recentMessages(10, live())).toEqual([]);
    first.thread.recordTurn({ runId: "r1", question: "hi", answer: "hello", state: { seen: 1 } });
    await first.save();
    await first.release();
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ format: THREAD_FILE_FORMAT, state: { seen: 1 } });
    const second = await openThreadFile(path, NO_LIMITS);
    expect((await second.thread.recentMessages(10, live())).map((message) => message.content)).toEqual(["hi", "hello"]);
    expect(second.thread.state).toEqual({ seen: 1 });
    await second.release();
  });

  it("refuse a second command on a busy thread with THREAD_BUSY, until the first releases it", async () => {
    const path = join(dir, "busy.json");
    const first = await openThreadFile(path, NO_LIMITS);
    await expect(openThreadFile(path, NO_LIMITS)).rejects.toMatchObject({ code: "THREAD_BUSY", message: expect.stringContaining("busy.json.lock") });
    await first.release();
    await (await openThreadFile(path, NO_LIMITS)).release();
  });

  it("refuse a file that is not a thread, naming the field, and leave no lock behind", async () => {
    const path = join(dir, "bad.json");
    await writeFile(path, JSON.stringify({ format: THREAD_FILE_FORMAT, messages: [{ role: "robot", content: "x", createdAt: "2026-11-20T10:00:00Z" }], state: {} }));
    await expect(openThreadFile(path, NO_LIMITS)).rejects.toMatchObject({ code: "THREAD_FILE_INVALID", message: expect.stringContaining("messages.0.role") });
    await writeFile(path, "not json");
    await expect(openThreadFile(path, NO_LIMITS)).rejects.toMatchObject({ code: "THREAD_FILE_INVALID", message: expect.stringContaining("not JSON") });
  });
});
