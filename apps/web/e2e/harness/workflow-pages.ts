import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./browser.js";
import { startWeftStack, type WeftStack } from "./weft-stack.js";

/** Creates a workflow from a template in the UI's picker and waits for its editor; answers its id. */
export async function createFromTemplate(page: Page, webUrl: string, templateId: string): Promise<string> {
  await page.goto(`${webUrl}/workflows`);
  await page.getByRole("button", { name: "From template…" }).click();
  await page.getByTestId("template-picker").locator(`[data-template="${templateId}"]`).getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 120_000 });
  await page.getByTestId("canvas").waitFor();
  await page.waitForLoadState("networkidle");
  return page.url().split("/").pop() ?? "";
}

/** A browser and a stack for one file's tests, the browser on the workflow list pointed at the stack's API. */
export async function openOnWorkflows(): Promise<{ browser: BrowserSession; stack: WeftStack }> {
  const browser = await openBrowser();
  const stack = await startWeftStack();
  await browser.page.goto(stack.entryUrl);
  await browser.page.getByRole("heading", { name: "Workflows" }).waitFor();
  return { browser, stack };
}
