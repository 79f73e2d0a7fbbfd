import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import type { BrowserSession } from "./harness/browser.js";
import { canvasNodeIds, dragConnection, nodeCard, runFromEditor } from "./harness/canvas-gestures.js";
import { graphqlRequest, importWorkflow } from "./harness/graphql-request.js";
import { englishLeftOnPage } from "./harness/korean-leftovers.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { repoRoot, type WeftStack } from "./harness/weft-stack.js";
import { createFromTemplate, openOnWorkflows } from "./harness/workflow-pages.js";

/**
 * The editor as users of other workflow builders expect it, in headless Chromium against the real API
 * and the built UI (one stack and one browser for the whole file):
 *
 *   seed-003 from its template ─▶ laid out with no two cards overlapping, minimap ─▶ tidy up
 *   a new workflow ─▶ undo/redo a delete, a move and a config edit (each checked on the server)
 *   ─▶ undo/redo a save of the workflow's settings and of its limits (the panel with nothing selected)
 *   ─▶ copy and paste a selection with its edge (ids renamed) ─▶ paste it into another workflow
 *   ─▶ duplicate a loop's two ends: the loop edge and a renamed loop come along; undone, redone
 *   ─▶ Ctrl+K finds a node, ? lists the shortcuts, right-click menus, drag from the palette
 *   ─▶ a subgraph in a map body: an add and a move undone and redone on the body's own canvas
 *
 * Screenshots go to test-artifacts/e2e/ (prefixed "editor-").
 */

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
const ids = { seed3: "", scratch: "", other: "" };

const poll = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout, interval: 150 });
const shot = (name: string) => browser.screenshot(`editor-${name}`);

interface ServerGraph {
  name: string;
  nodes: { id: string; type: string; content: string | null; config: Record<string, unknown> | null; position: { x: number; y: number } }[];
  edges: { id: string; source: string; target: string; sourcePort: string; loop: string | null }[];
  loops: { id: string; max: number | null; exit: string | null }[];
  limits: { maxInvocations: number | null };
}
const serverGraph = async (id: string) =>
  (
    await graphqlRequest<{ workflow: ServerGraph }>(
      stack.apiUrl,
      "query($id: ID!) { workflow(id: $id) { name nodes { id type content config position { x y } } edges { id source target sourcePort loop } loops { id max exit } limits { maxInvocations } } }",
      { id },
    )
  ).workflow;

const importExample = (file: string): Promise<string> => importWorkflow(stack.apiUrl, JSON.parse(readFileSync(path.join(repoRoot, "examples", file), "utf8")) as unknown);

const openTemplate = (templateId: string) => createFromTemplate(page, stack.webUrl, templateId);

async function createWorkflow(name: string): Promise<string> {
  const created = await graphqlRequest<{ createWorkflow: { workflow: { id: string } } }>(stack.apiUrl, "mutation($name: String!) { createWorkflow(input: { name: $name }) { workflow { id } } }", { name });
  return created.createWorkflow.workflow.id;
}

async function openEditor(id: string): Promise<void> {
  await page.goto(`${stack.webUrl}/workflows/${id}`);
  await page.getByTestId("canvas").waitFor();
  await page.locator(".react-flow__node").first().waitFor();
}

/** The drawn cards' boxes on screen, and every pair of them that overlaps. */
async function overlappingCards(within: Locator = page.locator("body")): Promise<string[]> {
  const boxes = await within.locator(".react-flow__node").evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { id: node.getAttribute("data-id") ?? "", left: box.left, top: box.top, right: box.right, bottom: box.bottom };
    }),
  );
  const pairs: string[] = [];
  for (let i = 0; i < boxes.length; i += 1)
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) pairs.push(`${a.id}/${b.id}`);
    }
  return pairs;
}

const press = (keys: string) => page.keyboard.press(keys);

/** The words of what users named: workflows, their nodes, ports, channels and loops, knowledge bases. */
async function namesOfTheData(workflowId: string): Promise<Set<string>> {
  const data = await graphqlRequest<{
    workflows: { edges: { node: { name: string; description: string } }[] };
    workflow: { nodes: { id: string; ports: string[] }[]; state: { name: string }[]; loops: { id: string }[] };
    knowledgeBases: { edges: { node: { name: string; description: string } }[] };
  }>(
    stack.apiUrl,
    "query($id: ID!) { workflows(first: 100) { edges { node { name description } } } workflow(id: $id) { nodes { id ports } state { name } loops { id } } knowledgeBases(first: 100) { edges { node { name description } } } }",
    { id: workflowId },
  );
  const texts = [
    ...data.workflows.edges.flatMap((edge) => [edge.node.name, edge.node.description]),
    ...data.workflow.nodes.flatMap((node) => [node.id, ...node.ports]),
    ...data.workflow.state.map((channel) => channel.name),
    ...data.workflow.loops.map((loop) => loop.id),
    ...data.knowledgeBases.edges.flatMap((edge) => [edge.node.name, edge.node.description]),
  ];
  // Each word, and each hyphenated name whole (`gwangju-popups`, `pop-up`).
  return new Set(texts.flatMap((text) => [...text.toLowerCase().split(/[^a-z]+/), ...text.toLowerCase().split(/[^a-z-]+/)]).filter(Boolean));
}
const viewportTransform = () => page.locator(".react-flow__viewport").first().evaluate((element) => (element as HTMLElement).style.transform);
/** Waits until the canvas' pan and zoom stop changing (a fit animates), read twice in a row the same. */
async function viewportSettled(): Promise<void> {
  let last = "";
  await poll(async () => {
    const now = await viewportTransform();
    const same = now === last;
    last = now;
    return same;
  }).toBe(true);
}
/** Clicks the empty canvas (clears the selection and gives the page, not a field, the keyboard). */
const clickPane = () => page.locator(".react-flow__pane").click({ position: { x: 8, y: 300 } });

beforeAll(async () => {
  ({ browser, stack } = await openOnWorkflows());
  page = browser.page;
});

browserSuiteHooks(() => ({ browser, stack }), "editor-");

describe("the editor in a real browser", () => {
  it("lays a template out in layers with no two cards overlapping, shows a minimap, and tidies up", async () => {
    ids.seed3 = await openTemplate("seed-003-parallel-self-rag");
    await poll(async () => (await canvasNodeIds(page)).length).toBe(16);
    await page.locator(".react-flow__minimap").waitFor();
    // The layout is saved: every node has its own spot on the server.
    await poll(async () => new Set((await serverGraph(ids.seed3)).nodes.map((node) => `${node.position.x},${node.position.y}`)).size).toBe(16);
    await page.getByTestId("tidy-up").click();
    await poll(overlappingCards).toEqual([]);
    await shot("seed-003-tidied");
    // Zoomed out to the whole graph, still no overlaps.
    await page.locator(".react-flow__controls-fitview").click();
    await poll(overlappingCards).toEqual([]);
    await shot("seed-003-whole");
  });

  it("adds every node type from the palette, each with a valid default config", async () => {
    const id = await createWorkflow("Every node type");
    await openEditor(id);
    const types = await page.locator(".palette [data-node-type]").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-node-type") ?? ""));
    expect(types.length).toBeGreaterThanOrEqual(21);
    for (const type of types) {
      const before = (await serverGraph(id)).nodes.length;
      await clickPane();
      await page.locator(`.palette [data-node-type="${type}"]`).click();
      // The one output node a workflow may have is refused with its reason; every other type is added.
      if (type === "output") {
        await page.getByText("Cannot add this node").first().waitFor();
        continue;
      }
      await poll(async () => (await serverGraph(id)).nodes.filter((node) => node.type === type).length, 30_000).toBeGreaterThanOrEqual(type === "input" ? 2 : 1);
      expect((await serverGraph(id)).nodes.length, type).toBe(before + 1);
    }
    // Two maps: the second's body gets ids of its own.
    await page.locator('.palette [data-node-type="map"]').click();
    await poll(async () => (await serverGraph(id)).nodes.filter((node) => node.type === "map").length).toBe(2);
    await page.getByTestId("tidy-up").click();
    await poll(overlappingCards).toEqual([]);
    await shot("every-type");
  });

  it("undoes and redoes a delete, a move and a config edit, each on the server", async () => {
    ids.scratch = await createWorkflow("Undo and paste");
    await openEditor(ids.scratch);
    // Add a template node and connect input → template.
    await page.locator('.palette [data-node-type="template"]').click();
    await poll(async () => (await canvasNodeIds(page)).length).toBe(3);
    const graph = await serverGraph(ids.scratch);
    const input = graph.nodes.find((node) => node.type === "input")!.id;
    const template = graph.nodes.find((node) => node.type === "template")!.id;
    // Laid out and in view, then connected.
    await page.getByTestId("tidy-up").click();
    await poll(overlappingCards).toEqual([]);
    await viewportSettled();
    await dragConnection(page, input, template);
    await poll(async () => (await serverGraph(ids.scratch)).edges.length).toBe(2);

    // A config edit, undone and redone.
    await nodeCard(page, template).click();
    const field = page.getByTestId("config-form").locator('[data-field="template"] textarea');
    await field.fill("Hello {input}");
    await page.getByTestId("config-form").getByRole("button", { name: "Save settings" }).click();
    await poll(async () => (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)?.config?.["template"]).toBe("Hello {input}");
    await clickPane();
    await press("Control+z");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)?.config?.["template"]).not.toBe("Hello {input}");
    await press("Control+Shift+z");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)?.config?.["template"]).toBe("Hello {input}");

    // A move, undone and redone.
    const before = (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)!.position;
    const box = (await nodeCard(page, template).boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + 40, box.y + 132, { steps: 10 });
    await page.mouse.up();
    await poll(async () => (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)!.position.y).toBeGreaterThan(before.y + 50);
    await press("Control+z");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)!.position).toEqual(before);
    await press("Control+y");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)!.position.y).toBeGreaterThan(before.y + 50);

    // A delete (the node and its edge), undone: both come back; redone: gone again.
    await nodeCard(page, template).click();
    await press("Delete");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.map((node) => node.id)).not.toContain(template);
    await shot("deleted");
    await press("Control+z");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.map((node) => node.id)).toContain(template);
    await poll(async () => (await serverGraph(ids.scratch)).edges.some((edge) => edge.source === input && edge.target === template)).toBe(true);
    await nodeCard(page, template).waitFor();
    expect((await serverGraph(ids.scratch)).nodes.find((node) => node.id === template)?.config?.["template"]).toBe("Hello {input}");
    await shot("delete-undone");
    await press("Control+Shift+z");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.map((node) => node.id)).not.toContain(template);
    await press("Control+z");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.map((node) => node.id)).toContain(template);

    // The workflow's settings (the panel shown with nothing selected): its name, then its limits.
    await clickPane();
    const settings = page.getByRole("form", { name: "Workflow settings" });
    await settings.getByLabel("Name", { exact: true }).fill("Undo, paste and settings");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await poll(async () => (await serverGraph(ids.scratch)).name).toBe("Undo, paste and settings");
    const limits = page.getByRole("form", { name: "Limits" });
    await limits.getByLabel("Most node invocations per run").fill("40");
    await limits.getByRole("button", { name: "Save limits" }).click();
    await poll(async () => (await serverGraph(ids.scratch)).limits.maxInvocations).toBe(40);
    await clickPane();
    await press("Control+z");
    await poll(async () => (await serverGraph(ids.scratch)).limits.maxInvocations).toBeNull();
    await poll(() => page.getByRole("form", { name: "Limits" }).getByLabel("Most node invocations per run").inputValue()).toBe("");
    await press("Control+z");
    await poll(async () => (await serverGraph(ids.scratch)).name).toBe("Undo and paste");
    await poll(() => settings.getByLabel("Name", { exact: true }).inputValue()).toBe("Undo and paste");
    await shot("settings-undone");
    await press("Control+Shift+z");
    await poll(async () => (await serverGraph(ids.scratch)).name).toBe("Undo, paste and settings");
    await poll(() => settings.getByLabel("Name", { exact: true }).inputValue()).toBe("Undo, paste and settings");
    await press("Control+Shift+z");
    await poll(async () => (await serverGraph(ids.scratch)).limits.maxInvocations).toBe(40);
  });

  it("copies a selection with its edge and pastes it renamed, here and into another workflow", async () => {
    const graph = await serverGraph(ids.scratch);
    const input = graph.nodes.find((node) => node.type === "input")!.id;
    const template = graph.nodes.find((node) => node.type === "template")!.id;
    // Select the two (Ctrl+click), copy, paste.
    await nodeCard(page, input).click();
    await nodeCard(page, template).click({ modifiers: ["Control"] });
    await press("Control+c");
    await press("Control+v");
    await poll(async () => (await serverGraph(ids.scratch)).nodes.length).toBe(5);
    const pasted = (await serverGraph(ids.scratch)).nodes.filter((node) => !graph.nodes.some((old) => old.id === node.id));
    expect(pasted.map((node) => node.type).sort()).toEqual(["input", "template"]);
    const pastedInput = pasted.find((node) => node.type === "input")!.id;
    const pastedTemplate = pasted.find((node) => node.type === "template")!;
    expect(pastedTemplate.config?.["template"]).toBe("Hello {input}");
    await poll(async () => (await serverGraph(ids.scratch)).edges.some((edge) => edge.source === pastedInput && edge.target === pastedTemplate.id)).toBe(true);
    await shot("pasted");

    // Ctrl+A selects the nodes (not the page's text); into another workflow the copy goes as well.
    await clickPane();
    await press("Control+a");
    expect(await page.locator(".react-flow__node.selected").count()).toBe(5);
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? "")).toBe("");
    // In view (the paste may have landed near an edge), then copied on its own.
    // (A click on a node of a selection keeps the selection: clear it first.)
    await page.getByTestId("tidy-up").click();
    await viewportSettled();
    await clickPane();
    await nodeCard(page, pastedTemplate.id).click();
    expect(await page.locator(".react-flow__node.selected").count()).toBe(1);
    await press("Control+c");
    ids.other = await createWorkflow("Paste target");
    await openEditor(ids.other);
    await clickPane();
    await press("Control+v");
    await poll(async () => (await serverGraph(ids.other)).nodes.filter((node) => node.type === "template").length).toBe(1);

    // A loop whose two ends are selected goes along: retry-loop's draft and check, duplicated.
    //   draft ─▶ check ─ pass ─▶ …        draft-2 ─▶ check-2
    //     ▲        │                         ▲          │
    //     └ retry ─┘ (regen ≤ 3)             └─ retry ──┘ (regen-2 ≤ 3, exit pass)
    const looped = await importExample("retry-loop.json");
    await openEditor(looped);
    await clickPane();
    await nodeCard(page, "draft").click();
    await nodeCard(page, "check").click({ modifiers: ["Control"] });
    await press("Control+d");
    await poll(async () => (await serverGraph(looped)).loops.map((loop) => loop.id)).toEqual(["regen", "regen-2"]);
    const duplicated = await serverGraph(looped);
    expect(duplicated.loops[1]).toEqual({ id: "regen-2", max: 3, exit: "pass" });
    const between = (graph: ServerGraph) => graph.edges.filter((edge) => edge.source.endsWith("-2") && edge.target.endsWith("-2")).map(({ source, target, sourcePort, loop }) => ({ source, target, sourcePort, loop }));
    expect(between(duplicated)).toEqual([
      { source: "draft-2", target: "check-2", sourcePort: "out", loop: null },
      { source: "check-2", target: "draft-2", sourcePort: "retry", loop: "regen-2" },
    ]);
    await nodeCard(page, "check-2").waitFor();
    await shot("loop-duplicated");
    await clickPane();
    await press("Control+z");
    await poll(async () => (await serverGraph(looped)).nodes.length).toBe(7);
    // The loop is dropped after its nodes are removed (a save of its own): waited for, not read at once.
    await poll(async () => (await serverGraph(looped)).loops.map((loop) => loop.id)).toEqual(["regen"]);
    await press("Control+Shift+z");
    await poll(async () => between(await serverGraph(looped))).toEqual(between(duplicated));
    expect((await serverGraph(looped)).loops).toEqual(duplicated.loops);
  });

  it("finds a node with Ctrl+K, lists the shortcuts, and offers right-click menus and drag-and-drop", async () => {
    await openEditor(ids.scratch);
    await clickPane();
    await press("Control+k");
    const finder = page.getByTestId("node-finder");
    await finder.locator("input").fill("hello");
    await finder.locator('[data-node-id]').first().waitFor();
    await shot("finder");
    await press("Enter");
    await poll(() => page.locator(".react-flow__node.selected").count()).toBe(1);
    await page.getByTestId("node-panel").waitFor();

    await clickPane();
    await press("Shift+?");
    await page.getByTestId("shortcuts-help").waitFor();
    expect(await page.getByTestId("shortcuts-help").textContent()).toContain("Ctrl+Shift+Z");
    await shot("shortcuts");
    await page.getByTestId("shortcuts-help").getByRole("button", { name: "Close" }).click();

    // Right-click the empty canvas (the graph laid out and zoomed away from the corner): add a node there.
    const before = (await serverGraph(ids.scratch)).nodes.length;
    await page.getByTestId("tidy-up").click();
    await viewportSettled();
    await page.locator(".react-flow__controls-zoomout").click();
    await page.locator(".react-flow__controls-zoomout").click();
    await viewportSettled();
    const pane = (await page.locator(".react-flow__pane").boundingBox())!;
    await page.locator(".react-flow__pane").click({ button: "right", position: { x: pane.width - 60, y: 70 } });
    await page.getByTestId("canvas-menu").waitFor();
    await shot("canvas-menu");
    await page.getByTestId("menu-add-join").click();
    await poll(async () => (await serverGraph(ids.scratch)).nodes.length).toBe(before + 1);
    // Right-click a node: duplicate it.
    const join = (await serverGraph(ids.scratch)).nodes.find((node) => node.type === "join")!.id;
    await nodeCard(page, join).click({ button: "right" });
    await page.getByTestId("menu-duplicate").click();
    await poll(async () => (await serverGraph(ids.scratch)).nodes.filter((node) => node.type === "join").length).toBe(2);

    // Drag a palette entry onto the canvas.
    const canvas = (await page.getByTestId("canvas").boundingBox())!;
    await page.locator('.palette [data-node-type="template"]').dragTo(page.getByTestId("canvas"), { targetPosition: { x: canvas.width - 200, y: canvas.height - 120 } });
    await poll(async () => (await serverGraph(ids.scratch)).nodes.filter((node) => node.type === "template").length).toBe(3);
    await shot("dropped");
  });

  it("opens a subgraph inside a map body on its own canvas, undoes edits there, and has a breadcrumb back", async () => {
    const codeweaver = await openTemplate("seed-004-codeweaver");
    // The map's menu opens its body.
    await nodeCard(page, "run_single_question_worker").click({ button: "right" });
    await page.getByTestId("menu-open-body").click();
    const bodies = page.getByTestId("body-editor");
    await poll(() => bodies.count()).toBe(1);
    await bodies.locator(".react-flow__node").first().waitFor();
    await poll(() => overlappingCards(bodies.first())).toEqual([]);
    // Inside it (its 20 cards open at a readable zoom on the first ones: zoomed out to all), the subgraph's own body.
    await bodies.locator(".react-flow__controls-fitview").click();
    await bodies.locator('[data-testid="node-search_subgraph"]').click();
    await bodies.getByTestId("config-form").getByRole("button", { name: "Open the body on its own canvas" }).click();
    await poll(() => bodies.count()).toBe(2);
    const inner = bodies.nth(1);
    await inner.locator(".react-flow__node").first().waitFor();
    expect(await inner.getByTestId("body-breadcrumb").textContent()).toMatch(/Workflow.*Body of run_single_question_worker.*Body of search_subgraph/);
    expect(await inner.locator(".react-flow__node").count()).toBe(4);
    await shot("subgraph-in-map-body");
    // Edits on a body's canvas are undone and redone there: Ctrl+Z, Ctrl+Shift+Z and the toolbar's buttons.
    const innerCards = inner.locator(".react-flow__node");
    await inner.locator('.palette [data-node-type="template"]').click();
    await poll(() => innerCards.count()).toBe(5);
    await inner.getByText("Unsaved changes").waitFor();
    await press("Control+z");
    await poll(() => innerCards.count()).toBe(4);
    expect(await inner.getByText("Unsaved changes").count()).toBe(0);
    await press("Control+Shift+z");
    await poll(() => innerCards.count()).toBe(5);
    const moved = innerCards.first();
    const placedAt = await moved.evaluate((node) => (node as HTMLElement).style.transform);
    const box = (await moved.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + 48, { steps: 8 });
    await page.mouse.up();
    await poll(() => moved.evaluate((node) => (node as HTMLElement).style.transform)).not.toBe(placedAt);
    await shot("body-edited");
    await inner.getByTestId("body-undo").click();
    await poll(() => innerCards.first().evaluate((node) => (node as HTMLElement).style.transform)).toBe(placedAt);
    expect(await innerCards.count()).toBe(5);
    await inner.getByTestId("body-undo").click();
    await poll(() => innerCards.count()).toBe(4);
    expect(await inner.getByTestId("body-undo").isDisabled()).toBe(true);
    await inner.getByTestId("body-redo").click();
    await poll(() => innerCards.count()).toBe(5);
    await press("Control+z");
    await poll(() => innerCards.count()).toBe(4);
    expect(await inner.getByText("Unsaved changes").count()).toBe(0);
    // A delete of a card with its two edges, undone: all three come back.
    const innerEdges = inner.locator(".react-flow__edge");
    const edgesBefore = await innerEdges.count();
    await inner.getByTestId("node-filter_and_score").click();
    await press("Delete");
    await poll(() => innerCards.count()).toBe(3);
    await poll(() => innerEdges.count()).toBe(edgesBefore - 2);
    await press("Control+z");
    await poll(() => innerCards.count()).toBe(4);
    await poll(() => innerEdges.count()).toBe(edgesBefore);
    expect(await inner.getByText("Unsaved changes").count()).toBe(0);
    // Delete was the top canvas' alone: the canvases under it (the map's body, the workflow) kept their
    // selected nodes, and the server's graph still has the map.
    expect(await bodies.count()).toBe(2);
    expect((await serverGraph(codeweaver)).nodes.map((node) => node.id)).toContain("run_single_question_worker");
    // Back one level, then to the workflow.
    await inner.getByTestId("body-breadcrumb").getByRole("button", { name: "Body of run_single_question_worker" }).click();
    await poll(() => bodies.count()).toBe(1);
    await bodies.first().getByTestId("body-breadcrumb").getByRole("button", { name: "Workflow" }).click();
    await poll(() => bodies.count()).toBe(0);
    await page.getByTestId("canvas").waitFor();
  });

  it("runs with the input dialog: a field per input node, and a banner for scripted test models", async () => {
    await openEditor(ids.seed3);
    await page.locator(".run-bar button.btn--primary").click();
    const dialog = page.getByTestId("run-dialog");
    await dialog.waitFor();
    expect(await dialog.getByTestId("scripted-banner").textContent()).toContain("not language models");
    await shot("run-dialog-scripted");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    const id = await createWorkflow("Run with input");
    await openEditor(id);
    await page.locator(".run-bar button.btn--primary").click();
    const fields = dialog.locator("[data-input] textarea");
    expect(await fields.count()).toBe(1);
    await fields.first().fill("Typed into the run dialog");
    await dialog.getByTestId("run-dialog-start").click();
    await poll(() => page.getByTestId("run-status").textContent()).toMatch(/completed/i);
    await poll(() => page.getByTestId("results-pane").textContent()).toContain("Typed into the run dialog");
    // The input node itself was not edited: the text went with the run only.
    expect((await serverGraph(id)).nodes.every((node) => !JSON.stringify(node).includes("Typed into"))).toBe(true);
    await shot("run-with-input");
  });

  it("leaves no English on the main pages in Korean mode", async () => {
    // A run to show on the run pages, then Korean.
    if (!ids.seed3) ids.seed3 = await openTemplate("seed-003-parallel-self-rag");
    await openEditor(ids.seed3);
    await runFromEditor(page);
    await poll(() => page.getByTestId("run-status").textContent(), 60_000).toMatch(/completed/i);
    const runHref = (await page.getByTestId("results-pane").getByRole("link").first().getAttribute("href")) ?? "";
    await page.getByLabel("Language").selectOption("ko");
    const pages: [string, string][] = [
      ["workflows", "/workflows"],
      ["editor", `/workflows/${ids.seed3}`],
      ["runs", "/runs"],
      ["run", runHref],
      ["knowledge-bases", "/knowledge-bases"],
      ["settings", "/settings"],
      ["api-keys", "/api-keys"],
      ["secrets", "/secrets"],
      ["threads", `/workflows/${ids.seed3}/threads`],
    ];
    const dataWords = await namesOfTheData(ids.seed3);
    const leftovers: string[] = [];
    for (const [name, path] of pages) {
      await page.goto(`${stack.webUrl}${path}`);
      await page.locator("main").waitFor();
      await page.waitForLoadState("networkidle");
      if (name === "editor") {
        await page.locator(".react-flow__node").first().waitFor();
        await nodeCard(page, "vector_retrieval").click();
      }
      await browser.screenshot(`editor-korean-${name}`);
      const words = await englishLeftOnPage(page, dataWords);
      if (words.length > 0) leftovers.push(`${name}: ${words.join(", ")}`);
    }
    await page.getByLabel("언어").selectOption("en");
    expect(leftovers).toEqual([]);
  });
});
