import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import { canvasNodeIds, dragConnection, nodeCard, runFromEditor } from "./harness/canvas-gestures.js";
import { graphqlRequest as graphqlRequestTo } from "./harness/graphql-request.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { startWeftStack, type WeftStack } from "./harness/weft-stack.js";

/**
 * The admin UI in headless Chromium against the real API (embedded database, offline models) and the
 * built web app. The steps share one browser page and build on each other, in order:
 *
 *   create workflow ─▶ forbidden connection refused ─▶ input → generation → validation → output
 *     ─▶ nodes added and removed by another client drawn live ─▶ run, descriptions stream, nodes completed ─▶ run in history with node details
 *     ─▶ knowledge base: create, add document, search ─▶ API key shown once ─▶ settings
 *
 * Each step leaves a screenshot in test-artifacts/e2e/.
 */

/** Long enough to be split into several chunks (800 characters each by default). */
const WEAVING_GUIDE = [
  "# Looms\n\nA loom holds the warp threads under tension so that the weft thread can be passed over and under them. " +
    "Floor looms use treadles to lift groups of warp threads; table looms use levers. The shed is the gap between raised and lowered warp threads. ".repeat(3),
  "# Twill\n\nTwill weaving produces diagonal ribs by offsetting each pass of the weft by one warp thread. " +
    "Denim and gabardine are twills; the diagonal ribs make the cloth drape well and hide dirt. ".repeat(4),
  "# Satin\n\nSatin weaving floats the weft over several warp threads before it passes under one, which gives a smooth, glossy face. " +
    "Satin snags more easily than plain weave because of its long floats. ".repeat(4),
].join("\n\n");

const QUESTION = "Which weave makes diagonal ribs?";

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
const workflow = { id: "", input: "", output: "", generation: "", validation: "", runId: "" };

/** An upper bound for the page to catch up (a failure limit, not a timing assertion). */
const poll = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout, interval: 100 });

/** A GraphQL call from outside the browser, as another client of the same API would make it. */
const graphqlRequest = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(stack.apiUrl, query, variables);

/** Graph edits go to the server; waiting for its answer keeps the steps from racing the editor. */
async function settle(): Promise<void> {
  await page.waitForLoadState("networkidle");
}

async function addNode(type: string): Promise<string> {
  const before = new Set(await canvasNodeIds(page));
  await page.locator(`.palette [data-node-type="${type}"]`).click();
  await poll(async () => (await canvasNodeIds(page)).length).toBe(before.size + 1);
  await settle();
  const added = (await canvasNodeIds(page)).find((id) => !before.has(id));
  if (!added) throw new Error(`no ${type} node appeared`);
  return added;
}

/** Selects a model node and gives it the offline echo model (clearly labelled as not a language model). */
async function chooseEchoModel(id: string): Promise<void> {
  await nodeCard(page, id).click();
  const panel = page.getByTestId("node-panel");
  await panel.locator('select[name="provider"]').selectOption("offline");
  await panel.locator('select[name="model"]').selectOption("echo");
  await panel.getByRole("button", { name: "Save node" }).click();
  await poll(() => nodeCard(page, id).textContent()).toContain("echo");
  await settle();
}

/** New nodes may land outside the visible part of the canvas; the canvas's fit-view control fixes that. */
async function fitView(): Promise<void> {
  await page.locator(".react-flow__controls-fitview").click();
  await settle();
}

async function edgeIds(): Promise<string[]> {
  return page.locator(".react-flow__edge").evaluateAll((edges) => edges.map((e) => e.getAttribute("data-id") ?? ""));
}

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startWeftStack();
});

browserSuiteHooks(() => ({ browser, stack }));

describe("admin UI in a real browser", () => {
  it("creates a workflow that starts as input → output", async () => {
    await page.goto(stack.entryUrl);
    await page.getByRole("heading", { name: "Workflows" }).waitFor();
    await browser.screenshot("workflow-list-empty");

    await page.locator('input[name="workflow-name"]').fill("E2E demo");
    await page.locator('input[name="workflow-name"]').press("Enter");
    await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
    workflow.id = page.url().split("/").pop() ?? "";
    await page.getByTestId("canvas").waitFor();
    await poll(async () => (await canvasNodeIds(page)).length).toBe(2);
    const ids = await canvasNodeIds(page);
    for (const id of ids) {
      const type = await nodeCard(page, id).getAttribute("class");
      if (type?.includes("wf-node--type-input")) workflow.input = id;
      if (type?.includes("wf-node--type-output")) workflow.output = id;
    }
    expect(workflow.input).not.toBe("");
    expect(workflow.output).not.toBe("");
    expect(await edgeIds()).toHaveLength(1);
    await browser.screenshot("workflow-created");
  });

  it("refuses a forbidden connection and says why", async () => {
    workflow.generation = await addNode("generation");
    workflow.validation = await addNode("validation");
    await fitView();
    await chooseEchoModel(workflow.generation);
    await chooseEchoModel(workflow.validation);
    const edgesBefore = await edgeIds();

    // validation → generation: generation takes only an input node as its pre-node.
    let hint = "";
    await dragConnection(page, workflow.validation, workflow.generation, {
      whileOverTarget: async () => {
        const refusal = page.getByTestId("connection-refusal");
        await refusal.waitFor({ state: "visible" });
        hint = (await refusal.textContent()) ?? "";
        await browser.screenshot("forbidden-connection-hint");
      },
    });
    expect(hint.length).toBeGreaterThan(0);
    const toast = page.locator(".toast--error").last();
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/generation|input/i);
    await browser.screenshot("forbidden-connection-refused");
    expect(await edgeIds()).toEqual(edgesBefore);
    await toast.locator(".toast__close").click();
  });

  it("builds input → generation → validation → output", async () => {
    // The output node takes exactly one pre-node, so the starting input → output edge goes first.
    // A click halfway between the handles lands on the edge's (wide, invisible) interaction path.
    const from = await page.locator(`.react-flow__node[data-id="${workflow.input}"] .react-flow__handle.source`).boundingBox();
    const to = await page.locator(`.react-flow__node[data-id="${workflow.output}"] .react-flow__handle.target`).boundingBox();
    if (!from || !to) throw new Error("handles of the starting edge are not on screen");
    await page.mouse.click((from.x + from.width / 2 + to.x + to.width / 2) / 2, (from.y + from.height / 2 + to.y + to.height / 2) / 2);
    await page.keyboard.press("Delete");
    await poll(edgeIds).toHaveLength(0);
    await settle();

    await dragConnection(page, workflow.input, workflow.generation);
    await poll(edgeIds).toHaveLength(1);
    await settle();
    await dragConnection(page, workflow.generation, workflow.validation);
    await poll(edgeIds).toHaveLength(2);
    await settle();
    await dragConnection(page, workflow.validation, workflow.output);
    await poll(edgeIds).toHaveLength(3);
    await settle();

    await nodeCard(page, workflow.input).click();
    const panel = page.getByTestId("node-panel");
    await panel.locator('textarea[name="content"]').fill(QUESTION);
    await panel.getByRole("button", { name: "Save node" }).click();
    await poll(() => nodeCard(page, workflow.input).textContent()).toContain(QUESTION);
    await settle();
    await browser.screenshot("valid-graph");
  });

  it("draws nodes another client adds and removes, keeping the selection", async () => {
    // The input node is still selected from the previous step; the API adds and then removes a node.
    const before = await canvasNodeIds(page);
    const added = await graphqlRequest<{ addNode: { node: { id: string } | null } }>(
      'mutation ($id: ID!) { addNode(workflowId: $id, input: { type: "ensemble", position: { x: 40, y: 400 } }) { node { id } } }',
      { id: workflow.id },
    );
    const remoteId = added.addNode.node?.id ?? "";
    await poll(() => canvasNodeIds(page)).toContain(remoteId);
    expect(await page.getByTestId("node-panel").locator("h2").textContent()).toContain(workflow.input);
    await browser.screenshot("remote-node-drawn");
    await graphqlRequest("mutation ($id: ID!, $node: ID!) { removeNode(workflowId: $id, nodeId: $node) { removedNodeId } }", { id: workflow.id, node: remoteId });
    await poll(async () => (await canvasNodeIds(page)).sort()).toEqual([...before].sort());
    await settle();
  });

  it("runs it, streams descriptions and marks every node completed", async () => {
    await runFromEditor(page);
    const results = page.getByTestId("results-pane");
    await results.locator(".results__line--description").first().waitFor();
    await browser.screenshot("run-streaming");
    for (const id of [workflow.input, workflow.generation, workflow.validation, workflow.output]) {
      await poll(() => nodeCard(page, id).getAttribute("data-status"), 60_000).toBe("COMPLETED");
    }
    await poll(() => page.getByTestId("run-status").textContent()).toMatch(/completed/i);
    const descriptions = await results.locator(".results__line--description").count();
    expect(descriptions).toBeGreaterThanOrEqual(2);
    const link = results.locator('a[href^="/runs/"]');
    workflow.runId = ((await link.getAttribute("href")) ?? "").split("/").pop() ?? "";
    expect(workflow.runId).toMatch(/^[0-9a-f-]{36}$/);
    await browser.screenshot("run-completed");
  });

  it("shows the run in history and its per-node details", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Runs" }).click();
    const row = page.locator(`tr[data-run-id="${workflow.runId}"]`);
    await row.waitFor();
    expect(await row.locator("[data-status]").getAttribute("data-status")).toBe("COMPLETED");
    expect(await row.textContent()).toContain("E2E demo");
    await browser.screenshot("run-history");

    await row.locator(`a[href="/runs/${workflow.runId}"]`).click();
    await page.waitForURL(new RegExp(`/runs/${workflow.runId}$`));
    await poll(() => page.locator('.graph-node[data-state="COMPLETED"]').count()).toBe(4);
    await page.locator(`.timeline [data-node-id="${workflow.generation}"] button`).click();
    const details = page.locator(`.node-details[data-node-id="${workflow.generation}"]`);
    await details.waitFor();
    const text = (await details.textContent()) ?? "";
    expect(text).toContain("Rendered prompt");
    expect(text).toContain("Raw reply");
    // The input node's content reaches the generation node as its input, inside its rendered prompt,
    // and back in the echo model's reply and output.
    // (The output is rendered: Markdown text or a JSON tree; the rest is shown as recorded.)
    await poll(() => details.locator("pre, .markdown, .json").filter({ hasText: QUESTION }).count()).toBeGreaterThanOrEqual(3);
    // Description, output, input, rendered prompt and raw reply of the echo model are all recorded.
    await poll(() => details.locator("pre, .markdown, .json").count()).toBeGreaterThanOrEqual(5);
    await browser.screenshot("run-detail");
  });

  it("follows an active run live on its page and cancels it", async () => {
    // A 30 s pause in the generation node (an offline-model knob) keeps the run active while we watch.
    await page.goto(`${stack.webUrl}/workflows/${workflow.id}`);
    await nodeCard(page, workflow.generation).click();
    const panel = page.getByTestId("node-panel");
    await panel.locator('textarea[name="params"]').fill('{"delayMs": 30000}');
    await panel.getByRole("button", { name: "Save node" }).click();
    await settle();
    await runFromEditor(page);
    await poll(() => nodeCard(page, workflow.generation).getAttribute("data-status")).toBe("RUNNING");
    await page.getByTestId("results-pane").locator('a[href^="/runs/"]').click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);

    await page.locator('.run-header [data-stream="live"]').waitFor();
    await poll(() => page.locator(`.graph-node[data-node-id="${workflow.generation}"]`).getAttribute("data-state")).toBe("RUNNING");
    await poll(() => page.locator(`.graph-node[data-node-id="${workflow.input}"]`).getAttribute("data-state")).toBe("COMPLETED");
    await browser.screenshot("run-live");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Cancel run" }).click();
    await poll(() => page.locator(".run-header .badge").first().getAttribute("data-status")).toBe("CANCELLED");
    // The node in flight is aborted; the nodes after it never start.
    await poll(() => page.locator(`.graph-node[data-node-id="${workflow.generation}"]`).getAttribute("data-state")).toBe("FAILED");
    await poll(() => page.locator(`.graph-node[data-node-id="${workflow.output}"]`).getAttribute("data-state")).toBe("SKIPPED");
    expect(await page.getByRole("button", { name: "Cancel run" }).count()).toBe(0);
    await browser.screenshot("run-cancelled");
  });

  it("adds and updates rows in the run history as runs change status", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Runs" }).click();
    await page.getByTestId("runs-live").waitFor();
    // Earlier steps made runs, so the first page has rows once it has loaded; count only then.
    await page.locator("tr[data-run-id]").first().waitFor();
    const before = await page.locator("tr[data-run-id]").count();
    // Another client starts a run (the generation node still pauses 30 s) and then cancels it.
    const started = await graphqlRequest<{ runWorkflow: { run: { id: string } | null } }>(
      "mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } } }",
      { id: workflow.id },
    );
    const runId = started.runWorkflow.run?.id ?? "";
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await poll(() => row.locator("[data-status]").getAttribute("data-status")).toBe("RUNNING");
    expect(await page.locator("tr[data-run-id]").count()).toBe(before + 1);
    await browser.screenshot("run-history-live");
    await graphqlRequest("mutation ($id: ID!) { cancelRun(id: $id) { run { id } } }", { id: runId });
    await poll(() => row.locator("[data-status]").getAttribute("data-status")).toBe("CANCELLED");

    // Filters live in the address and narrow the list on the server.
    await page.getByRole("search").getByLabel("Status").selectOption("CANCELLED");
    await page.waitForURL(/\/runs\?status=CANCELLED$/);
    await poll(() => page.locator("tr[data-run-id] [data-status]").evaluateAll((cells) => cells.map((c) => c.getAttribute("data-status")))).toEqual(["CANCELLED", "CANCELLED"]);
    await page.getByRole("search").getByLabel("Status").selectOption("FAILED");
    await page.getByText("No runs match these filters.").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await poll(() => page.locator("tr[data-run-id]").count()).toBe(before + 1);
  });

  it("creates a knowledge base, ingests pasted and uploaded documents, browses chunks and searches", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Knowledge bases" }).click();
    await page.getByRole("heading", { name: "Knowledge bases", level: 1 }).waitFor();
    await browser.screenshot("knowledge-bases-empty");
    const create = page.getByRole("form", { name: "New knowledge base" });
    await create.getByLabel("Name").fill("e2e-handbook");
    await create.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/knowledge-bases\/[0-9a-f-]{36}$/);

    const add = page.getByRole("form", { name: "Add documents" });
    await add.getByLabel("Title").fill("Weaving guide");
    await add.getByLabel("Text").fill(WEAVING_GUIDE);
    await add.getByRole("button", { name: "Add", exact: true }).click();
    const ready = page.locator('tr[data-document-status="READY"]');
    await ready.waitFor({ timeout: 60_000 });
    expect(Number(await ready.locator("td.num").textContent())).toBeGreaterThan(1);

    // Upload: files are recognised by their content; a file that claims to be a PDF and is none fails with its reason.
    await add.getByRole("tab", { name: "Upload files" }).click();
    const files = add.locator('input[type="file"]');
    await files.setInputFiles([
      { name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") },
      { name: "Satin notes.md", mimeType: "text/markdown", buffer: Buffer.from("# Satin\n\nSatin floats the weft over four warp threads.") },
    ]);
    await add.getByRole("button", { name: "Add", exact: true }).click();
    await poll(() => page.locator('tr[data-document-status="READY"]').count()).toBe(2);
    expect(await page.locator("tr[data-document-status]", { hasText: "Satin notes" }).textContent()).toContain("text/markdown");
    const scan = page.locator('tr[data-document-status="FAILED"]', { hasText: "scan" });
    await poll(() => scan.textContent()).toContain("DOCUMENT_INVALID");

    const guide = page.locator('tr[data-document-status="READY"]', { hasText: "Weaving guide" });
    await guide.getByRole("button", { name: "Chunks" }).click();
    await poll(() => page.getByTestId("document-chunks").locator(".chunk").count()).toBe(Number(await guide.locator("td.num").textContent()));
    await browser.screenshot("knowledge-base-ingested");

    const search = page.getByRole("region", { name: "Test search" });
    await search.getByLabel("Query").fill("diagonal ribs in twill");
    await search.getByLabel("Intensity").selectOption("MEDIUM");
    await search.getByRole("button", { name: "Search" }).click();
    const results = page.getByTestId("search-results");
    await results.waitFor();
    expect(await results.locator(".hit").count()).toBeGreaterThan(0);
    expect(await results.locator(".hit").first().textContent()).toMatch(/twill/i);
    await browser.screenshot("knowledge-base-search");
  });

  it("runs with the knowledge base and shows each node's retrieved context with scores", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflow.id}`);
    await nodeCard(page, workflow.generation).click();
    const panel = page.getByTestId("node-panel");
    await panel.locator('textarea[name="params"]').fill("{}");
    await panel.getByRole("button", { name: "Save node" }).click();
    await settle();
    await page.locator('select[name="run-knowledge-base"]').selectOption("e2e-handbook");
    await page.locator('select[name="run-intensity"]').selectOption("MEDIUM");
    await runFromEditor(page);
    await poll(() => page.getByTestId("run-status").textContent()).toMatch(/completed/i);
    await page.getByTestId("results-pane").locator('a[href^="/runs/"]').click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);

    await page.locator(`.timeline [data-node-id="${workflow.generation}"] button`).click();
    const details = page.locator(`.node-details[data-node-id="${workflow.generation}"]`);
    const chunks = details.locator(".chunk");
    await poll(() => chunks.count()).toBeGreaterThan(0);
    expect(await details.textContent()).toContain("Retrieved context · pgvector");
    expect(await chunks.first().locator(".chunk__head").textContent()).toMatch(/Weaving guide #\d+.*score \d\.\d{3}/);
    // The retrieved text reached the model: it is inside the rendered prompt.
    const firstChunk = ((await chunks.first().locator(".chunk__text").textContent()) ?? "").slice(0, 40);
    expect(await details.locator("pre").filter({ hasText: firstChunk }).count()).toBeGreaterThan(0);
    await browser.screenshot("run-with-context");
  });

  it("creates an API key, shows it once, and shows the server's settings", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "API keys" }).click();
    const form = page.getByRole("form", { name: "New API key" });
    await form.getByLabel("Name").fill("e2e-key");
    await form.getByRole("button", { name: "Create key" }).click();
    const secret = page.getByRole("alert", { name: "Copy this key now" }).locator("input");
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^\S{24,}$/);
    await browser.screenshot("api-key-created");
    await page.getByRole("button", { name: "I have stored it" }).click();
    expect(await page.getByRole("alert", { name: "Copy this key now" }).count()).toBe(0);
    const row = page.locator("tr", { hasText: "e2e-key" });
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Revoke" }).click();
    await poll(() => row.textContent()).toContain("Revoked");
    expect(await row.getByRole("button", { name: "Revoke" }).count()).toBe(0);

    await page.getByRole("navigation").getByRole("link", { name: "Settings" }).click();
    const server = page.getByRole("region", { name: "Server", exact: true });
    await server.waitFor();
    expect(await server.locator("[data-mode]").getAttribute("data-mode")).toBe("embedded");
    expect(await page.getByRole("region", { name: "Knowledge-base retrieval" }).locator("[data-store]").getAttribute("data-store")).toBe("pgvector");
    expect(await page.getByRole("region", { name: "Providers and models" }).locator("tbody tr").count()).toBeGreaterThan(0);
    await browser.screenshot("settings");
  });

  it("speaks Korean after switching the language", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Runs" }).click();
    await page.getByLabel("Language").selectOption("ko");
    await page.getByRole("heading", { name: "실행 기록", level: 1 }).waitFor();
    expect(await page.locator(`tr[data-run-id="${workflow.runId}"] [data-status]`).textContent()).toBe("완료");
    await browser.screenshot("run-history-korean");
    await page.locator(`a[href="/runs/${workflow.runId}"]`).click();
    await page.getByRole("heading", { name: "실행된 그래프" }).waitFor();
    await browser.screenshot("run-detail-korean");
    await page.getByLabel("언어").selectOption("en");
  });

  it("removes a document and deletes the knowledge base", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Knowledge bases" }).click();
    await page.getByRole("link", { name: "e2e-handbook" }).click();
    const satin = page.locator("tr[data-document-status]", { hasText: "Satin notes" });
    await satin.waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await satin.getByRole("button", { name: "Remove" }).click();
    await poll(() => satin.count()).toBe(0);
    // The weaving guide and the scan that failed remain.
    expect(await page.locator("tr[data-document-status]").count()).toBe(2);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete knowledge base" }).click();
    await page.waitForURL(/\/knowledge-bases$/);
    await page.getByText("No knowledge bases yet").waitFor();
  });

  it("creates a workflow from the demo template and runs it at once", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Workflows" }).click();
    await page.getByRole("button", { name: "From template…" }).click();
    const picker = page.getByTestId("template-picker");
    await picker.locator('[data-template="seed-002-query-flow"]').waitFor();
    expect(await picker.locator("[data-template]").count()).toBe(5);
    await browser.screenshot("template-picker");
    await picker.locator('[data-template="demo"]').getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/workflows\/[0-9a-f-]{36}$/);
    await poll(async () => (await canvasNodeIds(page)).sort()).toEqual(["answer", "check", "draft", "merge", "notes", "question"]);
    await runFromEditor(page);
    await poll(() => page.getByTestId("run-status").textContent(), 60_000).toMatch(/completed/i);
    await browser.screenshot("template-demo-run");
  });

  it("left no uncaught errors in the page", () => {
    const unexpected = browser.consoleErrors.filter((message) => !/Failed to load resource/.test(message));
    expect(unexpected).toEqual([]);
  });
});
