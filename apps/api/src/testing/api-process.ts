import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { cleanUpOnExit } from "@weft/test-services";
import type { ProcessRole } from "../app/process-role.js";
import { TestClient } from "./graphql-client.js";

const API_DIR = resolve(import.meta.dirname, "../..");
const START_TIMEOUT_MS = 120_000;

/** The API or a worker in its own process (`src/main.ts --role …`, as `dist/main.js` runs), on a free port. */
export interface ApiProcess {
  role: ProcessRole;
  pid: number;
  url: string;
  /** A client holding the admin key given at start. */
  admin: TestClient;
  /** Its JSON log lines so far. */
  logs: Record<string, unknown>[];
  /** Resolves with the exit code or signal once the process has exited. */
  exited: Promise<number | string | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a process with exactly `env` (plus PATH and HOME; nothing else of the shell's environment) and
 * resolves once it listens. `entry`: main.ts, or a test's own (testing/poison-worker-main.ts). It is killed when the test process exits or is stopped (SIGINT, SIGTERM).
 */
export async function startApiProcess(role: ProcessRole, env: Record<string, string>, adminKey: string, entry = "src/main.ts"): Promise<ApiProcess> {
  const child = spawn(process.execPath, ["--conditions=weft-source", "--import", "tsx", entry, "--role", role], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", WEFT_ADMIN_KEY: adminKey, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const unhook = cleanUpOnExit(() => child.kill("SIGKILL"));
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  const exited = new Promise<number | string | null>((done) =>
    child.once("exit", (code, signal) => {
      unhook();
      done(signal ?? code);
    }),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} process did not start within ${START_TIMEOUT_MS} ms:\n${stderr}`)), START_TIMEOUT_MS);
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!line) continue;
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          logs.push(parsed);
          if (typeof parsed["url"] === "string" && /listening/.test(String(parsed["msg"]))) {
            clearTimeout(timer);
            resolveUrl(parsed["url"]);
          }
        } catch {
          stderr += `${line}\n`;
        }
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${role} process exited (${code}) before listening:\n${stderr}\n${JSON.stringify(logs.slice(-5))}`));
    });
  });
  return {
    role,
    pid: child.pid!,
    url,
    admin: new TestClient(url, url.replace(/^http/, "ws"), adminKey),
    logs,
    exited,
    kill: (signal: NodeJS.Signals = "SIGTERM") => stop(child, exited, signal),
  };
}

async function stop(child: ChildProcess, exited: Promise<unknown>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited;
}
