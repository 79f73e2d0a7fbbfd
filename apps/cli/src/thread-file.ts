import { open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { THREAD_LIMITS, WeftError, type ThreadRetention } from "@weft/engine";
import { InMemoryThread, type ThreadSnapshot } from "@weft/providers";
import { z } from "zod";

/**
 * `weft run --thread FILE`: a conversation kept in a JSON file between commands. The file is read into
 * an in-memory thread, a completed run records its turn, and the file is replaced (written beside it,
 * then renamed). One command at a time per file: `FILE.lock` is created exclusively for the run and a
 * second command is refused with THREAD_BUSY, as the API refuses a second run on a busy thread.
 */

export const THREAD_FILE_FORMAT = "weft.thread/v1";
const MAX_FILE_BYTES = 64 * 1024 * 1024;

const threadFileSchema = z.strictObject({
  format: z.literal(THREAD_FILE_FORMAT),
  messages: z.array(
    z.strictObject({
      role: z.enum(["user", "assistant"]),
      content: z.string().max(THREAD_LIMITS.maxMessageLength),
      createdAt: z.iso.datetime({ offset: true }),
      runId: z.string().nullable().optional(),
    }),
  ),
  state: z.record(z.string(), z.json()),
});

export interface OpenThreadFile {
  thread: InMemoryThread;
  /** Writes the thread back (after a completed run). */
  save(): Promise<void>;
  /** Removes the lock; the file is left as last saved. */
  release(): Promise<void>;
}

export async function openThreadFile(path: string, retention: ThreadRetention): Promise<OpenThreadFile> {
  const lock = `${path}.lock`;
  try {
    await (await open(lock, "wx")).close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw threadFileError(path, `cannot create ${lock}: ${(error as Error).message}`);
    throw new WeftError("THREAD_BUSY", `another weft command is running on the thread ${path} (remove ${lock} if none is)`);
  }
  try {
    const thread = new InMemoryThread(await readSnapshot(path), retention);
    return {
      thread,
      save: () => writeSnapshot(path, thread.snapshot()),
      release: () => rm(lock, { force: true }),
    };
  } catch (error) {
    await rm(lock, { force: true });
    throw error;
  }
}

/** A missing file is a new, empty thread. */
async function readSnapshot(path: string): Promise<Partial<ThreadSnapshot>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw threadFileError(path, (error as Error).message);
  }
  if (text.length > MAX_FILE_BYTES) throw threadFileError(path, `it is larger than ${MAX_FILE_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw threadFileError(path, `it is not JSON (${(error as Error).message})`);
  }
  const parsed = threadFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw threadFileError(path, `${issue?.path.join(".") || "the document"}: ${issue?.message ?? "invalid"}`);
  }
  return { messages: parsed.data.messages, state: parsed.data.state };
}

async function writeSnapshot(path: string, snapshot: ThreadSnapshot): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ format: THREAD_FILE_FORMAT, ...snapshot }, null, 2)}\n`);
  await rename(temporary, path);
}

function threadFileError(path: string, reason: string): WeftError {
  return new WeftError("THREAD_FILE_INVALID", `cannot use ${path} as a thread file: ${reason}`);
}
