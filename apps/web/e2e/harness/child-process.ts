import { spawn, type ChildProcess } from "node:child_process";
import { cleanUpOnExit, freePort } from "@weft/test-services";

/** A server started for the suite; its output is kept so a failing start can say why. */
export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
  stop: () => Promise<void>;
  /** kill -9 at once, as a crash or a pulled plug; resolves once it has exited. */
  crash: () => Promise<void>;
}

/** The suite and the API's tests pick loopback ports the same way. */
export { freePort };

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
  // Killed with the suite if the suite's own process ends first (interrupted, or a crash of vitest).
  const unhook = cleanUpOnExit(() => child.kill("SIGKILL"));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      unhook();
      resolve();
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!running()) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const crash = async () => {
    if (running()) child.kill("SIGKILL");
    await exited;
  };
  return { name, child, output: () => output, stop, crash };
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
