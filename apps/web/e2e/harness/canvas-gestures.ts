import type { Locator, Page } from "playwright-core";

/** Gestures on the ReactFlow canvas, by node id (the editor renders `data-testid="node-<id>"`). */

export const nodeCard = (page: Page, id: string): Locator => page.getByTestId(`node-${id}`);

/** ReactFlow wraps each node in `.react-flow__node[data-id]`; its handles carry `source`/`target`. */
function handle(page: Page, id: string, kind: "source" | "target"): Locator {
  return page.locator(`.react-flow__node[data-id="${id}"] .react-flow__handle.${kind}`).first();
}

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  await locator.waitFor({ state: "visible" });
  const box = await locator.boundingBox();
  if (!box) throw new Error("element has no box on screen");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Drags a connection from one node's source handle to another's target handle in small steps (so
 * ReactFlow sees a real pointer path), optionally pausing over the target before releasing.
 */
export async function dragConnection(
  page: Page,
  from: string,
  to: string,
  options: { whileOverTarget?: () => Promise<void> } = {},
): Promise<void> {
  const start = await centre(handle(page, from, "source"));
  const end = await centre(handle(page, to, "target"));
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 8 });
  await page.mouse.move(end.x, end.y, { steps: 8 });
  if (options.whileOverTarget) await options.whileOverTarget();
  await page.mouse.up();
}

/** Ids of the nodes on the canvas. */
export async function canvasNodeIds(page: Page): Promise<string[]> {
  return page.locator(".react-flow__node").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-id") ?? ""));
}

/** Ids of the edges on the canvas, as "source->target". */
export async function canvasEdges(page: Page): Promise<string[]> {
  return page
    .locator(".react-flow__edge")
    .evaluateAll((edges) => edges.map((e) => e.getAttribute("data-testid") ?? e.getAttribute("aria-label") ?? ""));
}

/** The editor's Run: opens the run dialog and starts the run with the inputs as they are filled in. */
export async function runFromEditor(page: Page): Promise<void> {
  await page.locator(".run-bar button.btn--primary").click();
  await page.getByTestId("run-dialog-start").click();
  await page.getByTestId("run-dialog").waitFor({ state: "detached" });
}
