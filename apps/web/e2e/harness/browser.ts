import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { repoRoot } from "./weft-stack.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
export const artifactsDir = path.join(repoRoot, "test-artifacts/e2e");

/** The browser is required: a machine without it fails the suite rather than skipping it. */
export function chromiumPath(): string {
  const configured = process.env.WEFT_CHROMIUM;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`Chromium is missing: WEFT_CHROMIUM=${configured} does not exist`);
    return configured;
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      "Chromium is missing: the end-to-end suite needs Debian's chromium (apt-get install chromium) or WEFT_CHROMIUM=<path>",
    );
  }
  return found;
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot (of `page`, or of another page of the context) as test-artifacts/e2e/<nn>-<name>.png and returns its path. */
  screenshot: (name: string, of?: Page) => Promise<string>;
  consoleErrors: string[];
  close: () => Promise<void>;
}

/** Empties test-artifacts/e2e/ once per suite (vitest's globalSetup), so every file's screenshots stay. */
export function clearArtifacts(): void {
  rmSync(artifactsDir, { recursive: true, force: true });
  mkdirSync(artifactsDir, { recursive: true });
}

export async function openBrowser(): Promise<BrowserSession> {
  const executablePath = chromiumPath();
  const profile = mkdtempSync(path.join(tmpdir(), "weft-e2e-chromium-"));
  mkdirSync(artifactsDir, { recursive: true });
  // Playwright passes the fresh profile as --user-data-dir itself.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  let shot = 0;
  const screenshot = async (name: string, of: Page = page) => {
    shot += 1;
    const file = path.join(artifactsDir, `${String(shot).padStart(2, "0")}-${name}.png`);
    await of.screenshot({ path: file, fullPage: true });
    return file;
  };
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, screenshot, consoleErrors, close };
}
