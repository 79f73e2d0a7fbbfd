import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import type { ManagedProcess } from "./harness/child-process.js";
import { graphqlRequest as graphqlRequestTo } from "./harness/graphql-request.js";
import { startScaleOutStack, type ScaleOutStack } from "./harness/scale-out-stack.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";

/**
 * A run taken over by another worker, watched in the browser: PostgreSQL and Redis of the suite's own,
 * one API process (`--role api`) behind the built web UI, and worker A executing the run. Once the
 * draft has completed, worker A is killed (kill -9) while the slow check runs; worker B, started
 * afterwards, resumes the run from its stored events. The run page and the workflow's editor, open all
 * along and never reloaded, show the resumption (attempt 2: the run page's timeline row and event log,
 * the editor's results pane) and the run ending COMPLETED.
 *
 *   question ──▶ draft (offline echo, 300 ms) ──▶ check (offline echo, 12 s) ──▶ answer
 *
 * The check outlasts the moment the page sees the draft complete and the kill that follows; it runs
 * again from its start on worker B. Claims last 1 s without renewal (WEFT_QUEUE_LOCK_MS), so worker B
 * finds the stalled run within seconds rather than the default minute.
 */

const WORKFLOW = {
  format: "weft.workflow/v1",
  name: "Resumed run",
  prompts: { generation: "{input_data}\n{output_format}", ensemble: "{input_data}\n{output_format}", validation: "{input_data}\n{output_format}" },
  outputFormat: "JSON with description and output",
  nodes: [
    { id: "question", type: "input", content: "Which weave makes diagonal ribs?" },
    { id: "draft", type: "generation", provider: "offline", model: "echo", params: { delayMs: 300 } },
    { id: "check", type: "validation", provider: "offline", model: "echo", params: { delayMs: 12_000 } },
    { id: "answer", type: "output" },
  ],
  edges: [
    { source: "question", target: "draft" },
    { source: "draft", target: "check" },
    { source: "check", target: "answer" },
  ],
};

/** What the test reads back of the stored run. */
interface StoredRun {
  status: string;
  events: { seq: number; type: string; nodeId: string | null; attempt: number | null }[];
}

let stack: ScaleOutStack;
let browser: BrowserSession;
let page: Page;
/** The workflow's editor in a second tab: its results pane follows the run started elsewhere. */
let editor: Page;
let workerA: ManagedProcess;
const run = { workflowId: "", id: "" };

/** An upper bound for the page to catch up (a failure limit, not a timing assertion). */
const poll = <T>(read: () => Promise<T> | T, timeout = 90_000) => expect.poll(read, { timeout, interval: 200 });

const graphqlRequest = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(stack.apiUrl, query, variables);

const storedRun = async () =>
  (await graphqlRequest<{ run: StoredRun }>("query ($id: ID!) { run(id: $id) { status events { seq type nodeId attempt } } }", { id: run.id })).run;

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startScaleOutStack({ queueLockMs: 1_000 });
  workerA = await stack.startWorker("worker A");
});

browserSuiteHooks(() => ({ browser, stack }), "resumed-");

describe("a run resumed by another worker, in a real browser", () => {
  it("starts a run on worker A and follows it on its run page", async () => {
    const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
      "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
      { document: WORKFLOW },
    );
    expect(imported.importWorkflow.errors).toEqual([]);
    run.workflowId = imported.importWorkflow.workflow!.id;
    const started = await graphqlRequest<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }>(
      "mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code message } } }",
      { id: run.workflowId },
    );
    expect(started.runWorkflow.errors).toEqual([]);
    run.id = started.runWorkflow.run!.id;

    // The entry URL tells the UI which API to use; the run page is then opened as a link would.
    await page.goto(stack.entryUrl);
    await page.getByRole("heading", { name: "Workflows" }).waitFor();
    editor = await browser.context.newPage();
    await editor.goto(`${stack.webUrl}/workflows/${run.workflowId}`);
    await page.goto(`${stack.webUrl}/runs/${run.id}`);
    const draftCompleted = page.locator('.events li[data-event-type="NODE_COMPLETED"]', { hasText: "draft" });
    await draftCompleted.waitFor({ timeout: 90_000 });
    await editor.getByTestId("results-pane").locator(".results__lines li").first().waitFor({ timeout: 90_000 });
    await browser.screenshot("resumed-draft-completed-on-worker-A");
  });

  it("shows the run resumed with attempt 2 after worker A is killed and worker B takes it over, without a reload", async () => {
    await workerA.crash();
    expect(workerA.child.signalCode).toBe("SIGKILL");
    // Killed mid-run: nothing has ended it, and nothing has resumed it yet.
    const afterKill = await storedRun();
    expect(["QUEUED", "RUNNING"]).toContain(afterKill.status);
    expect(afterKill.events.map((event) => event.type)).not.toContain("RUN_RESUMED");
    expect(await page.locator('[data-mark^="resumed-"]').count()).toBe(0);

    const navigations: string[] = [];
    for (const tab of [page, editor]) {
      tab.on("framenavigated", (frame) => {
        if (frame === tab.mainFrame()) navigations.push(frame.url());
      });
    }
    await stack.startWorker("worker B");

    const mark = page.locator('.timeline [data-mark^="resumed-"]');
    await poll(() => mark.count()).toBe(1);
    expect(await mark.locator(".timeline__mark-label").textContent()).toBe("resumed · attempt 2");
    const logged = page.locator('.events li[data-event-type="RUN_RESUMED"]');
    await poll(() => logged.count()).toBe(1);
    expect(await logged.textContent()).toContain("another worker took the run over (attempt 2)");
    await browser.screenshot("resumed-taken-over-by-worker-B");
    const paneLine = editor.getByTestId("results-pane").locator('li[data-event-type="RUN_RESUMED"]');
    await poll(() => paneLine.count()).toBe(1);
    expect(await paneLine.locator(".results__tag").textContent()).toBe("resumed");
    expect(await paneLine.textContent()).toContain("another worker took the run over (attempt 2)");

    await poll(() => page.locator(".run-page .badge[data-status]").first().getAttribute("data-status")).toBe("COMPLETED");
    await page.locator('.events li[data-event-type="RUN_COMPLETED"]').waitFor();
    await browser.screenshot("resumed-run-completed");
    await logged.scrollIntoViewIfNeeded();
    await browser.screenshot("resumed-run-event-log");
    await poll(() => editor.getByTestId("run-status").getAttribute("class")).toContain("badge--completed");
    // The pane follows its last line; the resumed line is brought back into its view for the screenshot.
    await paneLine.evaluate((line) => line.scrollIntoView({ block: "center" }));
    await browser.screenshot("resumed-run-in-editor-results-pane", editor);
    expect(navigations).toEqual([]);

    const stored = await storedRun();
    expect(stored.status).toBe("COMPLETED");
    const resumed = stored.events.filter((event) => event.type === "RUN_RESUMED");
    expect(resumed).toEqual([expect.objectContaining({ attempt: 2 })]);
    // The page shows the stored events, each once, in order.
    const shown = await page.locator(".events li[data-event-type]").evaluateAll((items) => items.map((item) => item.getAttribute("data-event-type")));
    expect(shown).toEqual(stored.events.filter((event) => event.type !== "NODE_TOKEN").map((event) => event.type));
    const unexpected = browser.consoleErrors.filter((message) => !/Failed to load resource/.test(message));
    expect(unexpected).toEqual([]);
  });
});
