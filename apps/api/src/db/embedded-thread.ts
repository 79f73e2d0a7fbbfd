import { Worker } from "node:worker_threads";
import type {
  ConnectionInfo,
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
  TransactionOptions,
} from "@prisma/driver-adapter-utils";
import { receivedError, type Call, type Opened, type Operation, type Reply, type WorkerOptions } from "./embedded-thread-protocol.js";
import { workerEntry } from "../worker-entry.js";
import { connectPGliteShadow } from "./pglite-adapter.js";
import type { RawQueryable, RawResult, RawSql } from "./raw-sql.js";

/** The embedded database as the API thread sees it when PGlite runs on a thread of its own. */
export interface EmbeddedDatabaseThread {
  /** The Prisma driver adapter factory (and the migrations'): its adapters run on the database's thread. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  raw: RawSql;
  /** A tarball of the data directory (PGlite's `dumpDataDir`), e.g. for a backup or a test template. */
  dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob>;
  close(): Promise<void>;
}

export interface EmbeddedThreadOptions {
  dataDir: string;
  restoreFrom?: Blob;
}

/** How long close() waits for the thread to close PGlite and end before stopping it. */
const CLOSE_TIMEOUT_MS = 30_000;

type Send = (operation: Operation, handle: number, ...args: unknown[]) => Promise<unknown>;

/**
 * Opens PGlite on a worker thread of its own. PGlite runs PostgreSQL in WebAssembly on the thread that
 * calls it, and about half of a run's CPU time was spent there: on its own thread it uses the second
 * core while the API thread serves GraphQL, runs workflows and streams events. One message goes each
 * way per statement (not per protocol message): the Prisma adapter and the raw handle run on that
 * thread, next to PGlite, so what crosses is a statement and its rows.
 */
export async function openEmbeddedThread(options: EmbeddedThreadOptions): Promise<EmbeddedDatabaseThread> {
  const entry = workerEntry("embedded-thread-worker", import.meta.url);
  const workerData: WorkerOptions = { dataDir: options.dataDir, restoreFrom: await options.restoreFrom?.arrayBuffer() };
  const worker = new Worker(entry.url, {
    workerData,
    execArgv: entry.execArgv,
    transferList: workerData.restoreFrom ? [workerData.restoreFrom] : [],
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let exited: Error | undefined;

  // The thread keeps the process alive only while a call waits for it, as an in-thread database would.
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };
  const opened = new Promise<void>((resolve, reject) => {
    worker.once("message", (message: Opened) => (message.opened ? resolve() : reject(receivedError(message.error))));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the embedded database's thread exited (code ${code}) while opening`)));
  });
  await opened.catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  worker.on("message", (reply: Reply) => {
    const waiting = settle(reply.id);
    if (!waiting) return;
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(receivedError(reply.error));
  });
  worker.on("error", (error) => (exited = error));
  worker.on("exit", (code) => {
    exited ??= new Error(`the embedded database's thread exited (code ${code})`);
    for (const id of [...pending.keys()]) settle(id)?.reject(exited);
  });
  worker.unref();

  const send: Send = (operation, handle, ...args) => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    const promise = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
    try {
      worker.postMessage({ id, operation, handle, args } satisfies Call);
    } catch (error) {
      // An argument that cannot cross threads (a function, say) fails its call.
      settle(id)?.reject(error as Error);
    }
    return promise;
  };

  let closing: Promise<void> | undefined;
  return {
    adapterFactory: adapterFactory(send),
    raw: rawSql(send),
    async dumpDataDir(compression) {
      return new Blob([(await send("dumpDataDir", 0, compression)) as ArrayBuffer]);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (exited) return resolve();
        worker.ref();
        // PGlite writes its files out as it closes; a thread that does not end after that is stopped.
        const stop = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
        worker.once("exit", () => {
          clearTimeout(stop);
          resolve();
        });
        worker.postMessage("close");
      });
      return closing;
    },
  };
}

class ThreadQueryable {
  readonly provider = "postgres" as const;
  readonly adapterName = "pglite-prisma-adapter";

  constructor(
    protected readonly send: Send,
    protected readonly handle: number,
  ) {}

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return (await this.send("prisma.queryRaw", this.handle, query)) as SqlResultSet;
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    return (await this.send("prisma.executeRaw", this.handle, query)) as number;
  }
}

class ThreadTransaction extends ThreadQueryable implements Transaction {
  constructor(
    send: Send,
    handle: number,
    readonly options: TransactionOptions,
  ) {
    super(send, handle);
  }

  async commit(): Promise<void> {
    await this.send("prisma.commit", this.handle);
  }

  async rollback(): Promise<void> {
    await this.send("prisma.rollback", this.handle);
  }
}

class ThreadAdapter extends ThreadQueryable implements SqlDriverAdapter {
  constructor(
    send: Send,
    handle: number,
    private readonly connectionInfo: ConnectionInfo | undefined,
  ) {
    super(send, handle);
  }

  async executeScript(script: string): Promise<void> {
    await this.send("prisma.executeScript", this.handle, script);
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const started = (await this.send("prisma.startTransaction", this.handle, isolationLevel)) as { handle: number; options: TransactionOptions };
    return new ThreadTransaction(this.send, started.handle, started.options);
  }

  getConnectionInfo(): ConnectionInfo {
    return this.connectionInfo ?? { supportsRelationJoins: true };
  }

  async dispose(): Promise<void> {
    await this.send("prisma.dispose", this.handle);
  }
}

function adapterFactory(send: Send): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: "postgres",
    adapterName: "pglite-prisma-adapter",
    async connect() {
      const connected = (await send("prisma.connect", 0)) as { handle: number; connectionInfo?: ConnectionInfo };
      return new ThreadAdapter(send, connected.handle, connected.connectionInfo);
    },
    connectToShadowDb: connectPGliteShadow,
  };
}

function rawQueryable(send: Send, handle: number): RawQueryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      return (await send("raw.query", handle, sql, params)) as RawResult<Row>;
    },
    async exec(sql: string) {
      await send("raw.exec", handle, sql);
    },
    async script<Row>(sql: string) {
      return (await send("raw.script", handle, sql)) as { rows: Row[] };
    },
  };
}

function rawSql(send: Send): RawSql {
  return {
    ...rawQueryable(send, 0),
    async transaction(work) {
      const handle = (await send("raw.begin", 0)) as number;
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(rawQueryable(send, handle));
      } catch (error) {
        // The caller needs its own error; a rollback that fails means the thread is gone, which the next call reports.
        await send("raw.end", handle, false).catch(() => undefined);
        throw error;
      }
      await send("raw.end", handle, true);
      return result;
    },
  };
}
