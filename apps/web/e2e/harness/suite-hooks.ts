import { afterAll, afterEach } from "vitest";
import type { BrowserSession } from "./browser.js";
import type { WeftStack } from "./weft-stack.js";

/**
 * The hooks every browser file shares: a screenshot when a step fails (`<prefix>FAILED-<step title>`),
 * then the browser closed and the stack stopped. `session` reads the file's browser and stack, which
 * its beforeAll sets.
 */
export function browserSuiteHooks(session: () => { browser: BrowserSession | undefined; stack: WeftStack | undefined }, prefix = ""): void {
  afterEach(async (context) => {
    if (context.task.result?.state !== "fail") return;
    await session().browser?.screenshot(`${prefix}FAILED-${context.task.name.slice(0, 40).replace(/\W+/g, "-")}`);
  });
  afterAll(async () => {
    const { browser, stack } = session();
    await browser?.close();
    await stack?.stop();
  });
}
