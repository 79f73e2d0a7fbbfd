import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startPostgresServer, startRedisServer, type PostgresServer, type RedisServer } from "@weft/test-services";
import { freePort, startProcess, waitForHttp, type ManagedProcess } from "./child-process.js";
import { apiMain, repoRoot, startWeftStack, type WeftStack } from "./weft-stack.js";

const run = promisify(execFile);

/**
 * The server mode across processes: a PostgreSQL and a Redis owned by the suite, one API process
 * (`--role api`) behind the built web UI, and worker processes (`--role worker`) started and killed by
 * the test. Every process runs the built API (apps/api/dist).
 */
export interface ScaleOutStack extends WeftStack {
  /** Starts a worker on the stack's database and Redis; resolves once it answers /healthz. */
  startWorker: (name: string) => Promise<ManagedProcess>;
}

export interface ScaleOutOptions {
  /** WEFT_QUEUE_LOCK_MS: how long a worker's claim lasts without renewal, and how often stalled runs are looked for. */
  queueLockMs: number;
}

export async function startScaleOutStack(options: ScaleOutOptions): Promise<ScaleOutStack> {
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  let web: WeftStack | undefined;
  const workers: ManagedProcess[] = [];
  const stop = async () => {
    await Promise.allSettled(workers.map((worker) => worker.crash()));
    await web?.stop();
    await Promise.allSettled([redis?.stop(), postgres?.stop()]);
  };
  try {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      WEFT_QUEUE_LOCK_MS: String(options.queueLockMs),
      WEFT_AUTH: "disabled",
    };
    // As an operator does before starting the processes (README: server mode).
    await run(process.execPath, [apiMain.replace(/main\.js$/, "cli.js"), "migrate"], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: postgres.url, LOG_LEVEL: "warn" },
    });
    web = await startWeftStack({ args: ["--role", "api"], env });
    const startWorker = async (name: string) => {
      const port = await freePort();
      const worker = startProcess(name, process.execPath, [apiMain, "--role", "worker"], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...env },
      });
      workers.push(worker);
      await waitForHttp(worker, `http://127.0.0.1:${port}/healthz`);
      return worker;
    };
    return { ...web, startWorker, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
