import { readFile, stat } from "node:fs/promises";
import { WeftError, type JsonValue } from "@weft/engine";
import { z } from "zod";

/** Bounds of an answers file: it is read whole, so its size is checked first. */
export const ANSWERS_FILE_LIMITS = Object.freeze({ maxBytes: 1024 * 1024, maxAnswers: 10_000, maxCommentLength: 10_000, maxDepth: 64 });

/** One answer of `--answers FILE`: the task of node `nodeId` takes `action`, with `data` and `comment`. */
export interface FileAnswer {
  nodeId: string;
  action: string;
  data?: JsonValue;
  comment?: string;
}

const answersSchema = z
  .array(
    z.strictObject({
      nodeId: z.string().min(1).max(128),
      action: z.string().min(1).max(128),
      data: z.json().optional(),
      comment: z.string().max(ANSWERS_FILE_LIMITS.maxCommentLength).optional(),
    }),
  )
  .max(ANSWERS_FILE_LIMITS.maxAnswers);

/** Reads `--answers FILE`: a JSON list of `{nodeId, action, data?, comment?}`; ANSWERS_INVALID names what is wrong. */
export async function readAnswersFile(path: string): Promise<FileAnswer[]> {
  const refuse = (message: string) => new WeftError("ANSWERS_INVALID", `--answers ${path}: ${message}`);
  let text: string;
  try {
    if ((await stat(path)).size > ANSWERS_FILE_LIMITS.maxBytes) throw refuse(`larger than ${ANSWERS_FILE_LIMITS.maxBytes} bytes`);
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof WeftError) throw error;
    throw refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse("is not JSON");
  }
  if (deeperThan(value, ANSWERS_FILE_LIMITS.maxDepth)) throw refuse(`nests values deeper than ${ANSWERS_FILE_LIMITS.maxDepth} levels`);
  const parsed = answersSchema.safeParse(value);
  if (parsed.success) return parsed.data as FileAnswer[];
  const issue = parsed.error.issues[0]!;
  throw refuse(`${issue.path.length > 0 ? `[${issue.path.join("][")}]: ` : ""}${issue.message}`);
}

/**
 * Hands out the file's answers in order: a task takes the first answer not yet used whose nodeId is its
 * node's (a node in a loop or a map takes its answers one invocation after another).
 */
export class FileAnswers {
  readonly #left: FileAnswer[];

  constructor(answers: readonly FileAnswer[]) {
    this.#left = [...answers];
  }

  take(nodeId: string): FileAnswer | null {
    const index = this.#left.findIndex((answer) => answer.nodeId === nodeId);
    return index < 0 ? null : this.#left.splice(index, 1)[0]!;
  }
}

/** Whether a parsed JSON value nests deeper than `max` (walked with a stack: a deep value costs no recursion). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
