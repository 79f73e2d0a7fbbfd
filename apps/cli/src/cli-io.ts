import { once } from "node:events";
import type { Readable, Writable } from "node:stream";

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  /** Where `weft run` asks a person to answer a task, when it is a terminal. */
  stdin?: Readable & { isTTY?: boolean };
}

/** Writes a line and, when the stream's buffer is full, waits for it to drain (back-pressure). */
export async function writeLine(stream: Writable, line: string): Promise<void> {
  if (!stream.write(`${line}\n`)) await once(stream, "drain");
}

export function writeJson(stream: Writable, value: unknown): Promise<void> {
  return writeLine(stream, JSON.stringify(value, null, 2));
}
