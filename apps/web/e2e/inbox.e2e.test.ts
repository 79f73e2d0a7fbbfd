import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import { graphqlRequest as graphqlRequestTo } from "./harness/graphql-request.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { startWeftStack, type WeftStack } from "./harness/weft-stack.js";

/**
 * The inbox in headless Chromium against the real API and the built UI, with the editorial-review example
 * (examples/editorial-review.json): a run waits at its human step; the task is listed in the inbox; the
 * task's page draws its form from the JSON Schema, starting from the draft (editable); a headline the form
 * refuses is shown at its field and sends nothing; the edited headline, a comment and Publish complete the
 * task and the run ends with the edited text. The inbox speaks Korean too.
 *
 *   topic ─► draft (llm, offline scripted) ─► review (human) ─[publish]─► publish ─► answer ─► result
 *                ▲───────[revise, loop revision]───────────────┘ └[reject]──► rejected ─┘
 */
const WORKFLOW = JSON.parse(readFileSync(fileURLToPath(new URL("../../../examples/editorial-review.json", import.meta.url)), "utf8")) as { name: string };

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
let runId = "";

const poll = <T>(read: () => Promise<T> | T, timeout = 60_000) => expect.poll(read, { timeout, interval: 100 });
const graphqlRequest = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(stack.apiUrl, query, variables);
const runStatus = async () => (await graphqlRequest<{ run: { status: string; result: string | null } }>("query ($id: ID!) { run(id: $id) { status result } }", { id: runId })).run;

const TITLE = "Review the draft before it is published";

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startWeftStack();
  const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
    "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
    { document: WORKFLOW },
  );
  const workflowId = imported.importWorkflow.workflow?.id ?? "";
  const started = await graphqlRequest<{ runWorkflow: { run: { id: string } | null } }>("mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code } } }", { id: workflowId });
  runId = started.runWorkflow.run?.id ?? "";
  await page.goto(stack.entryUrl); // the UI learns this stack's API from ?api= and keeps it
  // expect.poll belongs to tests: the setup waits for the run to park by asking again.
  for (let asked = 0; (await runStatus()).status !== "WAITING"; asked += 1) {
    if (asked === 600) throw new Error(`run ${runId} did not reach WAITING`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

browserSuiteHooks(() => ({ browser, stack }), "inbox-");

describe("the inbox in a real browser", () => {
  it("lists the open task of the waiting run and opens it with its instructions and the draft in the form", async () => {
    await page.goto(`${stack.webUrl}/runs`);
    await page.getByRole("navigation").getByRole("link", { name: "Inbox" }).click();
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
    const row = page.getByRole("row").filter({ hasText: TITLE });
    await row.waitFor();
    expect(await row.textContent()).toContain("editors");
    await browser.screenshot("inbox-open-tasks");
    await row.getByRole("link", { name: TITLE }).click();
    await page.getByRole("heading", { name: TITLE, level: 1 }).waitFor();
    expect(await page.locator(".task-page__instructions strong").first().textContent()).toBe("Publish");
    await poll(() => page.locator("#root_headline").inputValue()).toBe("The sky is blue because of the air, which is a long story involving light");
    expect(await page.locator("#root_body").inputValue()).toContain("Sunlight meets the air");
    for (const label of ["Publish", "Ask for a revision", "Reject"]) await page.getByRole("button", { name: label }).waitFor();
    await browser.screenshot("inbox-task-form");
  });

  it("shows a headline the form refuses at its field and sends nothing", async () => {
    await page.locator("#root_headline").fill("");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.locator(".has-error #root_headline, #root_headline[aria-invalid=true], .error-detail").first().waitFor();
    expect((await runStatus()).status).toBe("WAITING");
    await browser.screenshot("inbox-task-refused");
  });

  it("completes the task with the edited headline and a comment, and the run ends with the edited text", async () => {
    await page.locator("#root_headline").fill("Why the sky is blue");
    await page.getByLabel("Comment (optional)").fill("tightened the headline");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText(/Completed with publish by /).waitFor();
    await poll(async () => (await runStatus()).status).toBe("COMPLETED");
    expect((await runStatus()).result).toMatch(/^Why the sky is blue\n\nSunlight meets the air/);
    await browser.screenshot("inbox-task-completed");
  });

  it("speaks Korean", async () => {
    await page.goto(`${stack.webUrl}/inbox`);
    await page.getByLabel("Language").selectOption("ko");
    await page.getByRole("heading", { name: "받은 작업", level: 1 }).waitFor();
    await page.getByRole("combobox", { name: "상태" }).selectOption("COMPLETED");
    await page.getByRole("row").filter({ hasText: TITLE }).getByText("완료됨").waitFor();
    await browser.screenshot("inbox-korean");
    await page.getByLabel("언어").selectOption("en");
  });
});
