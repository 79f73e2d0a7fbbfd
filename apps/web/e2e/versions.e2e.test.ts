import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import { canvasNodeIds, dragConnection, nodeCard } from "./harness/canvas-gestures.js";
import { graphqlRequest as graphqlRequestTo } from "./harness/graphql-request.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { repoRoot, startWeftStack, type WeftStack } from "./harness/weft-stack.js";

/**
 * Published versions in headless Chromium against the real API and the built UI. The steps build on
 * each other, in order:
 *
 *   v1: question ──▶ draft ──▶ answer
 *   a node left unconnected: publishing is refused, the node is outlined
 *   v2: question ──▶ draft (params changed) ──▶ check ──▶ answer
 *   versions listed ─▶ v1 → v2 drawn and listed ─▶ v1 run from the list ─▶ re-run ─▶ runs filtered by v1
 *   a template without positions run and drawn laid out ─▶ a 16-node template's v1 → draft fitted whole
 *
 * Each step leaves a screenshot in test-artifacts/e2e/ (prefixed "versions-").
 */

const WORKFLOW = {
  format: "weft.workflow/v1",
  name: "Versioned answers",
  prompts: { generation: "{input_data}\n{output_format}", ensemble: "{input_data}\n{output_format}", validation: "{input_data}\n{output_format}" },
  outputFormat: "JSON with description and output",
  nodes: [
    { id: "question", type: "input", content: "Which weave makes diagonal ribs?", position: { x: 0, y: 0 } },
    { id: "draft", type: "generation", provider: "offline", model: "echo", position: { x: 260, y: 0 } },
    { id: "answer", type: "output", position: { x: 760, y: 0 } },
  ],
  edges: [
    { id: "e1", source: "question", target: "draft" },
    { id: "e2", source: "draft", target: "answer" },
  ],
};

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
let workflowId = "";
let check = "";
const runs = { first: "", rerun: "" };

const poll = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout, interval: 100 });

/** A GraphQL call from outside the browser, as another client of the same API would make it. */
const graphqlRequest = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(stack.apiUrl, query, variables);

const settle = () => page.waitForLoadState("networkidle");

interface ExampleDocument {
  nodes: Array<{ id: string; position?: { x: number; y: number } } & Record<string, unknown>>;
  [field: string]: unknown;
}
const example = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, "examples", file), "utf8")) as ExampleDocument;

async function importDocument(document: unknown): Promise<string> {
  const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
    "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
    { document },
  );
  if (!imported.importWorkflow.workflow) throw new Error(`import refused: ${JSON.stringify(imported.importWorkflow.errors)}`);
  return imported.importWorkflow.workflow.id;
}

/** Each read-only card's box on screen. */
const cardBoxes = () =>
  page.locator(".graph-node").evaluateAll((cards) =>
    cards.map((card) => {
      const box = card.getBoundingClientRect();
      return { id: card.getAttribute("data-node-id") ?? "", x: box.x, y: box.y, width: box.width, height: box.height };
    }),
  );

/** The pairs of cards whose boxes overlap. */
function overlaps(boxes: readonly { id: string; x: number; y: number; width: number; height: number }[]): string[] {
  return boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).map((b) => `${a.id}/${b.id}`));
}

/** The read-only canvas' zoom, from ReactFlow's viewport transform. */
const viewportZoom = () => page.locator(".graph-view--tall .react-flow__viewport").evaluate((viewport) => new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a);
const shot = (name: string) => browser.screenshot(`versions-${name}`);

async function publish(note: string): Promise<void> {
  await page.getByRole("button", { name: "Publish…" }).click();
  const form = page.getByRole("form", { name: "Publish a version" });
  await form.getByLabel("Note").fill(note);
  await form.getByRole("button", { name: "Publish", exact: true }).click();
}

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startWeftStack();
  const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null } }>(
    "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
    { document: WORKFLOW },
  );
  workflowId = imported.importWorkflow.workflow?.id ?? "";
  // The entry URL points the UI at this API; the UI remembers it for the session.
  await page.goto(stack.entryUrl);
  await page.getByRole("heading", { name: "Workflows" }).waitFor();
});

browserSuiteHooks(() => ({ browser, stack }), "versions-");

describe("published versions in a real browser", () => {
  it("publishes the workflow with a note from the editor", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}`);
    const published = page.getByTestId("published-version");
    await poll(() => published.textContent()).toBe("Not published");
    await publish("first answers");
    await poll(() => published.textContent()).toBe("v1 published");
    await page.locator(".toast--success", { hasText: "Published version 1." }).waitFor();
    await shot("published-v1");
  });

  it("refuses to publish a graph that breaks a rule and outlines the node at fault", async () => {
    const before = new Set(await canvasNodeIds(page));
    await page.locator('.palette [data-node-type="validation"]').click();
    await poll(async () => (await canvasNodeIds(page)).length).toBe(before.size + 1);
    await settle();
    check = (await canvasNodeIds(page)).find((id) => !before.has(id)) ?? "";
    await publish("with a check");
    const refusals = page.getByTestId("run-refusals");
    await refusals.waitFor();
    expect(await refusals.textContent()).toContain("Not published");
    await poll(() => nodeCard(page, check).getAttribute("data-flagged")).toBe("true");
    expect(await page.getByTestId("published-version").textContent()).toBe("v1 published");
    await shot("publish-refused");
  });

  it("publishes v2 once the check is wired in and the draft's params changed", async () => {
    // The output takes one pre-node: draft → answer goes, draft → check → answer comes.
    await page.locator(".react-flow__controls-fitview").click();
    const from = await page.locator('.react-flow__node[data-id="draft"] .react-flow__handle.source').boundingBox();
    const to = await page.locator('.react-flow__node[data-id="answer"] .react-flow__handle.target').boundingBox();
    if (!from || !to) throw new Error("handles of draft → answer are not on screen");
    await page.mouse.click((from.x + from.width / 2 + to.x + to.width / 2) / 2, (from.y + from.height / 2 + to.y + to.height / 2) / 2);
    await page.keyboard.press("Delete");
    await poll(() => page.locator(".react-flow__edge").count()).toBe(1);
    await settle();
    await dragConnection(page, "draft", check);
    await poll(() => page.locator(".react-flow__edge").count()).toBe(2);
    await settle();
    await dragConnection(page, check, "answer");
    await poll(() => page.locator(".react-flow__edge").count()).toBe(3);
    await settle();

    const panel = page.getByTestId("node-panel");
    await nodeCard(page, check).click();
    await panel.locator('select[name="provider"]').selectOption("offline");
    await panel.locator('select[name="model"]').selectOption("echo");
    await panel.getByRole("button", { name: "Save node" }).click();
    await poll(() => nodeCard(page, check).textContent()).toContain("echo");
    await settle();
    await nodeCard(page, "draft").click();
    await panel.locator('textarea[name="params"]').fill('{"delayMs": 20}');
    await panel.getByRole("button", { name: "Save node" }).click();
    await settle();

    await publish("a check after the draft");
    await poll(() => page.getByTestId("published-version").textContent()).toBe("v2 published");
    expect(await page.getByTestId("run-refusals").count()).toBe(0);
  });

  it("lists the versions, newest first, with the draft above them", async () => {
    await page.getByTestId("published-version").click();
    await page.waitForURL(new RegExp(`/workflows/${workflowId}/versions$`));
    const rows = page.locator("tbody tr[data-version]");
    await poll(() => rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-version")))).toEqual(["draft", "2", "1"]);
    expect(await page.locator('tr[data-version="2"]').textContent()).toContain("a check after the draft");
    expect(await page.locator('tr[data-version="2"]').textContent()).toContain("latest");
    await shot("version-list");
  });

  it("draws v1 → v2 on one canvas with what was added, removed and changed, and lists the changed fields", async () => {
    await page.locator('tr[data-version="2"]').getByRole("link", { name: "Compare with v1" }).click();
    await page.waitForURL(/\/compare\?from=1&to=2$/);
    await page.getByTestId("version-compare").waitFor();
    const state = (id: string) => page.locator(`.graph-node[data-node-id="${id}"]`).getAttribute("data-state");
    await poll(() => state(check)).toBe("added");
    expect(await state("draft")).toBe("changed");
    expect(await state("question")).toBe("same");
    // Edges are drawn once the laid-out cards are measured again.
    await poll(() => page.locator(".graph-edge--removed").count()).toBe(1);
    expect(await page.locator(".graph-edge--added").count()).toBe(2);
    const draftChange = page.locator('[data-change-id="draft"]');
    expect(await draftChange.locator('[data-field="params"]').textContent()).toContain("20");
    expect(await page.locator('[data-change-id="e2"]').getAttribute("data-change")).toBe("removed");
    await shot("compare-v1-v2");
  });

  it("runs v1 from the version list, then re-runs that run on v1", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/versions`);
    await page.locator('tr[data-version="1"]').getByRole("button", { name: "Run" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    runs.first = page.url().split("/").pop() ?? "";
    await poll(() => page.locator(".run-header .badge").first().getAttribute("data-status")).toBe("COMPLETED");
    expect(await page.locator('.run-summary [data-version="1"]').textContent()).toBe("v1");
    // v1 has no check node: the graph as executed is v1's.
    expect(await page.locator(".graph-node").count()).toBe(3);
    // The stored details (end time, tokens) arrive with the refetch after the last event.
    await poll(() => page.locator(".run-summary").textContent()).not.toContain("0 (0 prompt");
    await shot("run-of-v1");

    await page.getByRole("button", { name: "Re-run" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(runs.first));
    runs.rerun = page.url().split("/").pop() ?? "";
    await poll(() => page.locator(".run-header .badge").first().getAttribute("data-status")).toBe("COMPLETED");
    expect(await page.locator('.run-summary [data-version="1"]').textContent()).toBe("v1");
    expect(await page.locator(".run-summary").textContent()).toContain(runs.first.slice(0, 8));
    await poll(() => page.locator(".run-summary").textContent()).not.toContain("0 (0 prompt");
    await shot("rerun-of-v1");
  });

  it("lists the runs of one version", async () => {
    // A run of the draft, which the v1 filter must leave out.
    await graphqlRequest("mutation ($id: ID!) { runWorkflow(workflowId: $id, input: { draft: true }) { run { id } } }", { id: workflowId });
    await page.goto(`${stack.webUrl}/runs?workflow=${workflowId}&version=1`);
    await page.locator(`tr[data-run-id="${runs.rerun}"]`).waitFor();
    const versions = () => page.locator("tr[data-run-id] [data-testid=run-version]").evaluateAll((cells) => cells.map((cell) => cell.textContent));
    await poll(versions).toEqual(["v1", "v1"]);
    // The filter's options come with the workflow's versions, after the rows: its value is '' until then.
    await poll(() => page.locator('select[name="run-version"]').inputValue()).toBe("1");
    await page.locator('select[name="run-version"]').selectOption("draft");
    await poll(versions).toEqual(["draft"]);
    await shot("runs-by-version");
  });

  it("lays out the run page's graph of a workflow saved without positions, cards apart", async () => {
    // retry-loop: a router, a loop back to the draft; imported with no positions at all.
    const template = example("retry-loop.json");
    const document = { ...template, nodes: template.nodes.map(({ position: _, ...node }) => node) };
    const id = await importDocument(document);
    const started = await graphqlRequest<{ runWorkflow: { run: { id: string } | null } }>("mutation ($id: ID!) { runWorkflow(workflowId: $id, input: { draft: true }) { run { id } } }", { id });
    await page.goto(`${stack.webUrl}/runs/${started.runWorkflow.run?.id ?? ""}`);
    await poll(() => page.locator(".run-header .badge").first().getAttribute("data-status")).toBe("COMPLETED");
    await poll(() => page.locator(".graph-view--measuring").count()).toBe(0);
    const boxes = await cardBoxes();
    expect(boxes.map((box) => box.id).sort()).toEqual(document.nodes.map((node) => node.id).sort());
    expect(overlaps(boxes)).toEqual([]);
    // In layers from left to right along the data edges (the loop edge back left out), as the editor lays it out.
    const x = (id: string) => boxes.find((box) => box.id === id)!.x;
    for (const [from, to] of [["question", "route"], ["route", "draft"], ["draft", "check"], ["check", "answer"], ["answer", "result"]] as const) expect(x(from), `${from} → ${to}`).toBeLessThan(x(to));
    await page.locator(".graph-view").first().scrollIntoViewIfNeeded();
    await shot("run-graph-laid-out");
  });

  it("fits every node of a 16-node comparison in its canvas at a readable zoom, cards apart", async () => {
    const id = await importDocument(example("seed-003-parallel-self-rag.json"));
    const published = await graphqlRequest<{ publishWorkflow: unknown }>("mutation ($id: ID!) { publishWorkflow(id: $id, note: \"v1\") { version { number } errors { code message } } }", { id });
    expect(published.publishWorkflow).toEqual({ version: { number: 1 }, errors: [] });
    // The draft loses one node and gains another: both are drawn (removed and added).
    const removed = await graphqlRequest<{ removeNode: { errors: unknown[] } }>("mutation ($id: ID!) { removeNode(workflowId: $id, nodeId: \"smalltalk_response\") { removedNodeId errors { code message } } }", { id });
    expect(removed.removeNode.errors).toEqual([]);
    const added = await graphqlRequest<{ addNode: { errors: unknown[] } }>("mutation ($id: ID!) { addNode(workflowId: $id, input: { type: \"template\", position: { x: 0, y: 0 }, config: { template: \"{input}\" } }) { node { id } errors { code message } } }", { id });
    expect(added.addNode.errors).toEqual([]);
    await page.goto(`${stack.webUrl}/workflows/${id}/compare?from=1`);
    await page.getByTestId("version-compare").waitFor();
    await poll(() => page.locator('.graph-node[data-state="removed"]').count()).toBe(1);
    await poll(() => page.locator(".graph-view--measuring").count()).toBe(0);
    const canvas = await page.locator(".graph-view--tall .react-flow").boundingBox();
    if (!canvas) throw new Error("the comparison's canvas is not on screen");
    const boxes = await cardBoxes();
    expect(boxes.length).toBe(17);
    expect(overlaps(boxes)).toEqual([]);
    const outside = boxes.filter((box) => box.x < canvas.x || box.y < canvas.y || box.x + box.width > canvas.x + canvas.width || box.y + box.height > canvas.y + canvas.height);
    expect(outside.map((box) => box.id)).toEqual([]);
    expect(await viewportZoom()).toBeGreaterThanOrEqual(0.55);
    await page.locator(".graph-view--tall").scrollIntoViewIfNeeded();
    await shot("compare-fitted-16-nodes");
  });

  it("speaks Korean on the version pages", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/compare?from=1&to=2`);
    await page.getByLabel("Language").selectOption("ko");
    await page.getByRole("heading", { name: "노드" }).waitFor();
    expect(await page.locator('[data-change-id="e2"] .badge').textContent()).toBe("삭제됨");
    await shot("compare-korean");
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/versions`);
    await page.getByRole("columnheader", { name: "게시한 키" }).waitFor();
    await shot("version-list-korean");
    await page.getByLabel("언어").selectOption("en");
  });

  it("left no uncaught errors in the page", () => {
    const unexpected = browser.consoleErrors.filter((message) => !/Failed to load resource/.test(message));
    expect(unexpected).toEqual([]);
  });
});
