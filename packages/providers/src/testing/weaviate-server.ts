import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/**
 * Starts a real Weaviate server (the binary built by scripts/ensure-test-services.sh) on loopback, on
 * free ports, with its data in a temporary directory. Tests that need Weaviate call this and FAIL when
 * the binary is missing: a missing service must never turn into skipped tests.
 */

export const WEAVIATE_VERSION = "v1.38.11";

export function defaultWeaviateBinary(): string {
  return process.env.WEAVIATE_BINARY ?? join(homedir(), ".cache", "weft", "bin", `weaviate-server-${WEAVIATE_VERSION}`);
}

export interface WeaviateServer {
  host: string;
  httpPort: number;
  grpcPort: number;
  url: string;
  /** Stops the process, keeping its data and ports: an outage. */
  interrupt(): Promise<void>;
  /** Starts it again after interrupt(), on the same ports and data; resolves once it is ready. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Weaviate exited during startup (code ${child.exitCode ?? child.signalCode}). Last output:\n${log()}`);
    }
    try {
      const response = await fetch(`${url}/v1/.well-known/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`Weaviate did not become ready within ${timeoutMs} ms. Last output:\n${log()}`);
}

export async function startWeaviateServer(options: { binary?: string; startupTimeoutMs?: number } = {}): Promise<WeaviateServer> {
  const binary = options.binary ?? defaultWeaviateBinary();
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(
      `Weaviate server binary not found at ${binary}. Run scripts/ensure-test-services.sh to build it, or set WEAVIATE_BINARY.`,
    );
  }
  const [httpPort, grpcPort, raftPort, raftRpcPort, gossipPort, dataPort] = await Promise.all(
    Array.from({ length: 6 }, () => freePort()),
  ) as [number, number, number, number, number, number];
  const dataDir = mkdtempSync(join(tmpdir(), "weft-weaviate-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dataDir,
    PERSISTENCE_DATA_PATH: dataDir,
    DEFAULT_VECTORIZER_MODULE: "none",
    AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED: "true",
    DISABLE_TELEMETRY: "true",
    CLUSTER_HOSTNAME: `weft-test-${httpPort}`,
    GRPC_PORT: String(grpcPort),
    RAFT_PORT: String(raftPort),
    RAFT_INTERNAL_RPC_PORT: String(raftRpcPort),
    RAFT_BOOTSTRAP_EXPECT: "1",
    CLUSTER_GOSSIP_BIND_PORT: String(gossipPort),
    CLUSTER_DATA_BIND_PORT: String(dataPort),
    LOG_LEVEL: "warning",
  };
  const url = `http://127.0.0.1:${httpPort}`;
  let output = "";
  const keep = (data: Buffer) => {
    output = (output + data.toString("utf8")).slice(-4000);
  };
  let child: ChildProcess;
  let exited: Promise<void>;
  const launch = async () => {
    child = spawn(binary, ["--host", "127.0.0.1", "--port", String(httpPort), "--scheme", "http"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    await waitUntilReady(url, child, () => output, options.startupTimeoutMs ?? 90_000);
  };
  const interrupt = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const stop = async () => {
    await interrupt();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return { host: "127.0.0.1", httpPort, grpcPort, url, interrupt, resume: launch, stop };
}
