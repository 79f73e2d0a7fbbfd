import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A server started for the suite; its output is kept so a failing start can say why. */
export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const OUTPUT_LIMIT = 20_000;

export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ManagedProcess {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-OUTPUT_LIMIT);
    if (process.env.WEFT_E2E_VERBOSE) process.stderr.write(`[${name}] ${chunk.toString("utf8")}`);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { name, child, output: () => output, stop };
}

/**
 * Polls `url` until it answers below 500. Fails at once if the process exits, with its output, and
 * after `attempts` polls otherwise (a count, not a clock, so a slow shared machine only waits longer).
 */
export async function waitForHttp(proc: ManagedProcess, url: string, attempts = 600): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) before ${url} answered:\n${proc.output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${proc.name} never answered ${url}:\n${proc.output()}`);
}
