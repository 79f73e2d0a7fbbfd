import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createConnection } from "node:net";
import os from "node:os";
import path from "node:path";
import { cleanUpOnExit } from "./clean-up-on-exit.js";
import { freePort } from "./free-port.js";

/** A throw-away Redis server on loopback (Debian's `redis-server`), owned by the test that started it. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Whether the server process is running. */
  readonly running: boolean;
  /** Kills the server at once (SIGKILL): what a crash or a pulled plug does. */
  crash(): Promise<void>;
  /** Starts it again on the same port and data directory (its append-only file is replayed). */
  restart(): Promise<void>;
  /** Stops the server and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

export class RedisServerError extends Error {
  readonly code = "TEST_REDIS_UNAVAILABLE";
  override readonly name = "RedisServerError";
}

const BINARY = "redis-server";
const READY_TIMEOUT_MS = 20_000;

/**
 * Starts a real Redis for tests: `redis-server` on a free loopback port (never 6379, where a system Redis
 * may listen) with its own data directory, the append-only file on and snapshots off, and the
 * `noeviction` policy BullMQ needs. A process exit hook kills it if the test forgets to stop it.
 */
export async function startRedisServer(): Promise<RedisServer> {
  if (spawnSync(BINARY, ["--version"]).error) {
    throw new RedisServerError("redis-server is not installed (apt-get install redis-server, or run scripts/ensure-test-services.sh)");
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "weft-redis-"));
  let child: ChildProcess | null = null;
  let port = 0;
  const killSync = () => {
    child?.kill("SIGKILL");
    child = null;
    rmSync(dir, { recursive: true, force: true });
  };
  const unhook = cleanUpOnExit(killSync);

  const launch = async () => {
    const started = spawn(BINARY, [
      ...["--bind", "127.0.0.1", "--port", String(port), "--dir", dir],
      ...["--save", "", "--appendonly", "yes", "--appendfsync", "everysec"],
      ...["--maxmemory-policy", "noeviction", "--daemonize", "no", "--logfile", ""],
    ], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    started.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
    started.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
    const exited = new Promise<never>((_resolve, reject) =>
      started.once("exit", (code) => reject(new RedisServerError(`redis-server exited with ${code} at start:\n${output}`))),
    );
    child = started;
    await Promise.race([waitForPing(port), exited]);
  };

  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      (child as ChildProcess | null)?.kill("SIGKILL");
      child = null;
      if (attempt >= 2) {
        unhook();
        killSync();
        throw error;
      }
    }
  }

  const waitExit = async (signal: NodeJS.Signals) => {
    const current = child;
    child = null;
    if (!current || current.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once("exit", () => resolve());
      current.kill(signal);
    });
  };

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== null && child.exitCode === null;
    },
    crash: () => waitExit("SIGKILL"),
    async restart() {
      await waitExit("SIGKILL");
      await launch();
    },
    async stop() {
      unhook();
      await waitExit("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the server answers PING on the port. */
async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (await ping(port)) return;
    if (Date.now() > deadline) throw new RedisServerError(`redis-server did not answer on port ${port} within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let answer = "";
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      if (answer.includes("\r\n")) socket.end();
    });
    socket.once("close", () => resolve(answer.startsWith("+PONG")));
    socket.once("error", () => resolve(false));
  });
}
