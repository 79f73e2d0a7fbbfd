import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { BrowserSession } from "./harness/browser.js";
import { canvasNodeIds, nodeCard, runFromEditor } from "./harness/canvas-gestures.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import type { WeftStack } from "./harness/weft-stack.js";
import { createFromTemplate, openOnWorkflows } from "./harness/workflow-pages.js";

/**
 * weft.workflow/v2 pipelines in headless Chromium against the real API and the built UI, from the seed
 * templates (offline and scripted models, the offline web search):
 *
 *   seed-002 from its template (retrieve's knowledge base picked from the server's) ─▶ run: the
 *     retrieval loop goes round twice (its header shows the grader's feedback) ─▶ run again: a cache
 *     hit ─▶ the run page lists both executions of retrieve
 *   seed-004 from its template ─▶ a switch case with a CEL condition that does not compile ─▶ the map's
 *     body on its own canvas and back ─▶ a two-turn conversation on a thread
 *
 * Each step leaves a screenshot in test-artifacts/e2e/ (prefixed "pipelines-").
 */

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
const ids = { seed2: "", seed4: "", firstRun: "" };

const poll = <T>(read: () => Promise<T> | T, timeout = 60_000) => expect.poll(read, { timeout, interval: 150 });
const shot = (name: string) => browser.screenshot(`pipelines-${name}`);
const badges = (id: string) => nodeCard(page, id).locator(".wf-node__badge").allTextContents();

const fromTemplate = (templateId: string) => createFromTemplate(page, stack.webUrl, templateId);

async function runInEditor(): Promise<void> {
  await runFromEditor(page);
  await poll(() => page.getByTestId("run-status").textContent()).toMatch(/completed/i);
}

beforeAll(async () => {
  ({ browser, stack } = await openOnWorkflows());
  page = browser.page;
});

browserSuiteHooks(() => ({ browser, stack }), "pipelines-");

describe("pipelines in a real browser", () => {
  it("creates the seed-002 template with its knowledge base, laid out with its ports and loop edges", async () => {
    ids.seed2 = await fromTemplate("seed-002-query-flow");
    await poll(async () => (await canvasNodeIds(page)).length).toBe(13);
    // A router's ports are handles of their own; loop edges are drawn apart and labelled.
    await page.locator('[data-testid="node-judge"] [data-port="retry"]').waitFor();
    expect(await page.locator(".react-flow__edge.wf-edge--loop").count()).toBe(2);
    await page.locator(".react-flow__controls-fitview").click();
    await shot("seed-002-canvas");
    // retrieve's knowledge base is a choice of the server's knowledge bases, the template's own selected.
    await nodeCard(page, "retrieve").click();
    const knowledgeBase = page.getByTestId("config-form").locator('[data-field="knowledgeBase"] select');
    expect(await knowledgeBase.inputValue()).toBe("rag-handbook");
    expect(await knowledgeBase.locator("option:checked").textContent()).toBe("rag-handbook");
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.getByTestId("node-panel").waitFor({ state: "detached" });
  });

  it("runs it and shows the retrieval loop's second iteration", async () => {
    await runInEditor();
    await poll(() => badges("retrieve")).toContain("2/3");
    // The loop header carries the grader's reason that sent it round again; the other header none.
    expect(await nodeCard(page, "retrieve").locator(".wf-node__feedback").getAttribute("title")).toBe("self-attention, positional encoding");
    expect(await nodeCard(page, "generate").locator(".wf-node__feedback").count()).toBe(0);
    const results = page.getByTestId("results-pane");
    expect(await results.locator('.results__line--loop[data-loop="retrieval"]').count()).toBe(1);
    const link = results.locator('a[href^="/runs/"]');
    ids.firstRun = ((await link.getAttribute("href")) ?? "").split("/").pop() ?? "";
    await shot("seed-002-loop");
  });

  it("answers the same question again from the cache, skipping everything after the lookup", async () => {
    await runInEditor();
    await poll(() => badges("cache_lookup")).toEqual([expect.stringMatching(/^cache hit/)]);
    // The hit's badge comes with CACHE_HIT; the skips follow in later events.
    await poll(() => nodeCard(page, "plan").getAttribute("data-status")).toBe("SKIPPED");
    await poll(() => page.locator(".react-flow__edge.wf-edge--dead").count()).toBeGreaterThan(0);
    await shot("seed-002-cache-hit");
  });

  it("lists each execution of a looped node on the run page", async () => {
    await page.goto(`${stack.webUrl}/runs/${ids.firstRun}`);
    await page.locator('.timeline [data-invocation="retrieval#2"][data-node-id="retrieve"]').waitFor();
    await page.locator('.timeline [data-invocation="retrieval#2"][data-node-id="retrieve"] button').click();
    const details = page.locator('.node-details[data-node-id="retrieve"]');
    await details.locator('[data-invocation="retrieval#2"]').waitFor();
    expect(await details.locator(".executions__item").count()).toBe(2);
    // The graph as executed shows the loop header's latest feedback too, once the run's events are replayed.
    await poll(() => page.getByTestId("graph-note-retrieve").getAttribute("title")).toBe("self-attention, positional encoding");
    expect(await page.getByTestId("graph-note-generate").count()).toBe(0);
    await shot("seed-002-run-executions");
  });

  it("shows a switch case's CEL condition that does not compile where it breaks", async () => {
    ids.seed4 = await fromTemplate("seed-004-codeweaver");
    await nodeCard(page, "route_plan").click();
    const form = page.getByTestId("config-form");
    const when = form.locator('[data-field="cases[0].when"] textarea');
    await when.fill("input.questions.size( > 3");
    const problem = form.locator('[data-field="cases[0].when"] [role="alert"]');
    await problem.waitFor();
    expect(await problem.locator("pre").textContent()).toMatch(/\^$/);
    expect(await form.getByRole("button", { name: "Save settings" }).isDisabled()).toBe(true);
    await shot("seed-004-cel-error");
    await form.getByRole("button", { name: "Undo changes" }).click();
    await poll(() => problem.count()).toBe(0);
  });

  it("opens the map's body on its own canvas and goes back", async () => {
    await nodeCard(page, "run_single_question_worker").click();
    await page.getByTestId("config-form").getByRole("button", { name: "Open the body on its own canvas" }).click();
    const body = page.getByTestId("body-editor");
    await body.waitFor();
    expect(await body.locator(".react-flow__node").count()).toBeGreaterThan(2);
    expect(await body.locator(".breadcrumb").textContent()).toContain("run_single_question_worker");
    await shot("seed-004-map-body");
    await body.getByRole("button", { name: "Workflow" }).click();
    await poll(() => body.count()).toBe(0);
  });

  it("holds a two-turn conversation on a thread", async () => {
    await page.getByTestId("threads-link").click();
    await page.getByRole("link", { name: "+ New conversation" }).click();
    const conversation = page.getByTestId("conversation");
    await conversation.locator("textarea").first().fill("How do I limit how many requests asyncio sends at once?");
    await conversation.getByRole("button", { name: "Send" }).click();
    await page.waitForURL(/\/threads\/[0-9a-f-]{36}/);
    await poll(() => page.locator('.message[data-role="ASSISTANT"]').count(), 90_000).toBe(1);
    await page.getByTestId("conversation").locator("textarea").first().fill("Can you explain again how the previous answer limits requests?");
    await page.getByTestId("conversation").getByRole("button", { name: "Send" }).click();
    await poll(() => page.locator('.message[data-role="ASSISTANT"]').count(), 90_000).toBe(2);
    expect(await page.locator('.message[data-role="USER"]').count()).toBe(2);
    expect(await page.locator('.message a[href^="/runs/"]').count()).toBe(4);
    await shot("seed-004-conversation");
  });

  it("left no uncaught errors in the page", () => {
    const unexpected = browser.consoleErrors.filter((message) => !/Failed to load resource/.test(message));
    expect(unexpected).toEqual([]);
  });
});
