import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, startProcess, waitForHttp, type ManagedProcess } from "./child-process.js";

export const repoRoot = path.resolve(import.meta.dirname, "../../../..");
const webRoot = path.join(repoRoot, "apps/web");
export const apiMain = path.join(repoRoot, "apps/api/dist/main.js");
const nextBin = path.join(webRoot, "node_modules/next/dist/bin/next");
const buildId = path.join(webRoot, ".next/BUILD_ID");

/** The real API (embedded database in a temp dir, auth disabled on loopback) and the built web UI. */
export interface WeftStack {
  apiUrl: string;
  webUrl: string;
  /** Opens the UI pointed at this API (the UI remembers it for the rest of the browser session). */
  entryUrl: string;
  dataDir: string;
  stop: () => Promise<void>;
}

function requireBuilt(): void {
  const missing = [apiMain, buildId].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `the end-to-end suite runs the built apps; missing ${missing.join(", ")}. Run \`pnpm turbo run build --filter=@weft/web...\` first.`,
    );
  }
  const srcDir = path.join(webRoot, "src");
  if (statSync(srcDir).mtimeMs > statSync(buildId).mtimeMs) {
    console.warn("e2e: apps/web/src changed after the last `next build`; the suite tests the older build");
  }
}

/** The real API alone, on a free loopback port with a fresh embedded database. */
export interface ApiServer {
  apiUrl: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/** What the stack's API process gets beyond the defaults: command-line arguments (`--role api`) and variables. */
export interface ApiOptions {
  args?: string[];
  env?: Record<string, string>;
}

export async function startApi(options: ApiOptions & { corsOrigin?: string } = {}): Promise<ApiServer> {
  if (!existsSync(apiMain)) {
    throw new Error(`the end-to-end suite runs the built API; ${apiMain} is missing. Run \`pnpm turbo run build --filter=@weft/api\` first.`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "weft-e2e-"));
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const api = startProcess("api", process.execPath, [apiMain, ...(options.args ?? [])], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(apiPort),
      HOST: "127.0.0.1",
      WEFT_DATA_DIR: dataDir,
      WEFT_AUTH: "disabled",
      WEFT_SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      CORS_ORIGINS: options.corsOrigin ?? "",
      ...options.env,
    },
  });
  const stop = async () => {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(api, `${apiUrl}/healthz`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { apiUrl, dataDir, stop };
}

export async function startWeftStack(apiOptions: ApiOptions = {}): Promise<WeftStack> {
  requireBuilt();
  const webPort = await freePort();
  const webUrl = `http://127.0.0.1:${webPort}`;
  const api = await startApi({ ...apiOptions, corsOrigin: webUrl });
  let web: ManagedProcess | null = null;
  const stop = async () => {
    await web?.stop();
    await api.stop();
  };
  try {
    web = startProcess("web", process.execPath, [nextBin, "start", "--hostname", "127.0.0.1", "--port", String(webPort)], {
      cwd: webRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    });
    await waitForHttp(web, `${webUrl}/`);
  } catch (error) {
    await stop();
    throw error;
  }
  const entryUrl = `${webUrl}/workflows?api=${encodeURIComponent(`${api.apiUrl}/graphql`)}`;
  return { apiUrl: api.apiUrl, webUrl, entryUrl, dataDir: api.dataDir, stop };
}
