import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real command line in a child process: `node --import tsx src/main.ts`, resolving the workspace
 * packages to their sources (weft-source), with real files in a temporary directory.
 */
const CLI_DIR = resolve(fileURLToPath(import.meta.url), "../../..");
const MAIN = join(CLI_DIR, "src/main.ts");
const BASE_ENV = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function start(args: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, ["--conditions=weft-source", "--import", "tsx", MAIN, ...args], {
    cwd: CLI_DIR,
    env: { ...BASE_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function weft(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = start(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}
