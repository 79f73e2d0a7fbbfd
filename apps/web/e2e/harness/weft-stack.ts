import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, startProcess, waitForHttp, type ManagedProcess } from "./child-process.js";

export const repoRoot = path.resolve(import.meta.dirname, "../../../..");
const webRoot = path.join(repoRoot, "apps/web");
const apiMain = path.join(repoRoot, "apps/api/dist/main.js");
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

export async function startWeftStack(): Promise<WeftStack> {
  requireBuilt();
  const dataDir = mkdtempSync(path.join(tmpdir(), "weft-e2e-"));
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  const processes: ManagedProcess[] = [];
  const stop = async () => {
    for (const proc of processes.reverse()) await proc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const api = startProcess("api", process.execPath, [apiMain], {
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
        CORS_ORIGINS: webUrl,
      },
    });
    processes.push(api);
    await waitForHttp(api, `${apiUrl}/healthz`);

    const web = startProcess("web", process.execPath, [nextBin, "start", "--hostname", "127.0.0.1", "--port", String(webPort)], {
      cwd: webRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    });
    processes.push(web);
    await waitForHttp(web, `${webUrl}/`);
  } catch (error) {
    await stop();
    throw error;
  }
  const entryUrl = `${webUrl}/workflows?api=${encodeURIComponent(`${apiUrl}/graphql`)}`;
  return { apiUrl, webUrl, entryUrl, dataDir, stop };
}
