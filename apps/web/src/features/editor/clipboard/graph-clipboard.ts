import { isJsonObject, LOOP_MAX_BOUND, type JsonValue, type LoopDeclaration, type WorkflowEdge, type WorkflowNode } from "@weft/engine";
import { edgeKey, type EdgeKey } from "../history/edit-history";

/**
 * Copy and paste of a selection of nodes: the nodes with their settings and the data edges between
 * them, as text on the system clipboard (so it reaches another workflow, in another tab too). Pasting
 * renames every id (bodies' nodes included: node ids are unique across a workflow) and moves the nodes
 * so they do not cover what they were copied from. A loop edge whose two ends are copied goes too, with
 * its loop's declaration (bound and exit port); the paste declares that loop anew under a fresh id, so
 * the copy loops on its own and the original's loop is untouched.
 */

export const CLIPBOARD_FORMAT = "weft.clipboard/v1";

/** Guards what a paste reads: text from the clipboard is anyone's. */
export const CLIPBOARD_LIMITS = { maxNodes: 200, maxTextLength: 2 * 1024 * 1024 } as const;

export interface ClipboardGraph {
  format: typeof CLIPBOARD_FORMAT;
  nodes: WorkflowNode[];
  /** Data edges and loop edges between the copied nodes; a loop edge names one of `loops`. */
  edges: EdgeKey[];
  /** The declarations of the loops the copied loop edges close (absent in copies made before loops went along). */
  loops?: LoopDeclaration[];
}

export function copySelection(
  graph: { nodes: readonly WorkflowNode[]; edges: readonly WorkflowEdge[]; loops?: readonly LoopDeclaration[] },
  selected: readonly string[],
): ClipboardGraph | null {
  const chosen = new Set(selected);
  const nodes = graph.nodes.filter((node) => chosen.has(node.id));
  if (nodes.length === 0) return null;
  const declared = new Map((graph.loops ?? []).map((loop) => [loop.id, loop]));
  const edges = graph.edges.filter((edge) => chosen.has(edge.source) && chosen.has(edge.target) && (!edge.loop || declared.has(edge.loop))).map(edgeKey);
  const loopIds = new Set(edges.flatMap((edge) => (edge.loop ? [edge.loop] : [])));
  const loops = [...loopIds].map((id) => ({ ...declared.get(id)! }));
  return { format: CLIPBOARD_FORMAT, nodes: nodes.map((node) => structuredClone(node)), edges, ...(loops.length > 0 ? { loops } : {}) };
}

/** A loop declaration read from the clipboard, or null when it is not one. */
function readLoop(value: unknown): LoopDeclaration | null {
  if (!isJsonObject(value) || typeof value["id"] !== "string") return null;
  const max = value["max"];
  const exit = value["exit"];
  if (max !== undefined && max !== null && !(Number.isInteger(max) && (max as number) >= 1 && (max as number) <= LOOP_MAX_BOUND)) return null;
  if (exit !== undefined && exit !== null && typeof exit !== "string") return null;
  return { id: value["id"], exit: typeof exit === "string" ? exit : null, ...(typeof max === "number" ? { max } : {}) };
}

/** The clipboard's text when it holds a copied selection; null for anything else (text, another app's data). */
export function readClipboard(text: string | null | undefined): ClipboardGraph | null {
  if (!text || text.length > CLIPBOARD_LIMITS.maxTextLength || !text.includes(CLIPBOARD_FORMAT)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isJsonObject(value)) return null;
  const clip = value as Partial<ClipboardGraph>;
  if (clip.format !== CLIPBOARD_FORMAT || !Array.isArray(clip.nodes) || !Array.isArray(clip.edges) || clip.nodes.length > CLIPBOARD_LIMITS.maxNodes) return null;
  const nodes = clip.nodes.filter((node): node is WorkflowNode => isJsonObject(node) && typeof node.id === "string" && typeof node.type === "string");
  const ids = new Set(nodes.map((node) => node.id));
  const loops = (Array.isArray(clip.loops) ? clip.loops.slice(0, CLIPBOARD_LIMITS.maxNodes) : []).map(readLoop).filter((loop): loop is LoopDeclaration => loop !== null);
  const loopIds = new Set(loops.map((loop) => loop.id));
  // A loop edge whose loop the clipboard does not declare is left out, as an edge to a node it lacks is.
  const edges = clip.edges.filter(
    (edge): edge is EdgeKey =>
      isJsonObject(edge) &&
      typeof edge.source === "string" &&
      typeof edge.target === "string" &&
      ids.has(edge.source) &&
      ids.has(edge.target) &&
      (edge.loop === undefined || (typeof edge.loop === "string" && loopIds.has(edge.loop))),
  );
  if (nodes.length === 0) return null;
  const used = new Set(edges.flatMap((edge) => (edge.loop ? [edge.loop] : [])));
  const kept = loops.filter((loop) => used.has(loop.id));
  return {
    format: CLIPBOARD_FORMAT,
    nodes,
    edges: edges.map(({ source, target, sourcePort, loop }) => ({ source, target, ...(typeof sourcePort === "string" ? { sourcePort } : {}), ...(loop ? { loop } : {}) })),
    ...(kept.length > 0 ? { loops: kept } : {}),
  };
}

/** `retrieve` → `retrieve-2`; `retrieve-2` → `retrieve-3`: the first such id nobody has. */
export function renamedId(id: string, taken: Set<string>): string {
  const stem = id.replace(/-\d+$/, "");
  for (let n = 2; ; n += 1) {
    const candidate = `${stem}-${n}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

/** A body (config.body) with its node ids renamed, at any depth, and its edges following them. */
function renameBody(body: JsonValue, rename: (id: string) => string): JsonValue {
  if (!isJsonObject(body)) return body;
  const nodes = Array.isArray(body["nodes"]) ? body["nodes"] : [];
  const names = new Map<string, string>();
  const renamedNodes = nodes.map((raw) => {
    if (!isJsonObject(raw) || typeof raw["id"] !== "string") return raw;
    const id = rename(raw["id"]);
    names.set(raw["id"], id);
    return { ...raw, id, ...(raw["body"] !== undefined ? { body: renameBody(raw["body"], rename) } : {}) };
  });
  const edges = (Array.isArray(body["edges"]) ? body["edges"] : []).map((raw) =>
    isJsonObject(raw) ? { ...raw, source: names.get(String(raw["source"])) ?? raw["source"] ?? null, target: names.get(String(raw["target"])) ?? raw["target"] ?? null } : raw,
  );
  return { ...body, nodes: renamedNodes, edges };
}

/** What a paste adds: new nodes, the edges between them, and the loops its loop edges declare. */
export interface PastedGraph {
  nodes: WorkflowNode[];
  edges: EdgeKey[];
  /** New loops, each declared with its first loop edge in `edges`. */
  loops: LoopDeclaration[];
}

/**
 * The copied nodes as new nodes of a graph whose ids (bodies included) are `taken` and whose loops are
 * `takenLoops`: renamed, shifted by `offset`, with the edges between them renamed too, and each copied
 * loop declared again under a fresh id with its bound and exit.
 */
export function pastedGraph(clip: ClipboardGraph, taken: ReadonlySet<string>, offset: { x: number; y: number }, takenLoops: ReadonlySet<string> = new Set()): PastedGraph {
  const usedLoops = new Set(takenLoops);
  const loopNames = new Map((clip.loops ?? []).map((loop) => [loop.id, renamedId(loop.id, usedLoops)]));
  const loops = (clip.loops ?? []).map((loop) => ({ ...loop, id: loopNames.get(loop.id)! }));
  const used = new Set(taken);
  const names = new Map<string, string>();
  for (const node of clip.nodes) names.set(node.id, renamedId(node.id, used));
  const nodes = clip.nodes.map((node) => {
    const position = node.position ?? { x: 0, y: 0 };
    const config = node.config?.["body"] !== undefined ? { ...node.config, body: renameBody(node.config["body"]!, (id) => renamedId(id, used)) } : node.config;
    return { ...node, id: names.get(node.id)!, position: { x: Math.round(position.x + offset.x), y: Math.round(position.y + offset.y) }, ...(config ? { config } : {}) };
  });
  const edges = clip.edges.filter((edge) => !edge.loop || loopNames.has(edge.loop)).map(({ loop, ...edge }) => ({
    ...edge,
    source: names.get(edge.source)!,
    target: names.get(edge.target)!,
    ...(loop && loopNames.has(loop) ? { loop: loopNames.get(loop)! } : {}),
  }));
  return { nodes, edges, loops };
}

/** Where a paste goes: beside the copied nodes when they are on this canvas, else with its top-left at `at`. */
export function pasteOffset(clip: ClipboardGraph, at: { x: number; y: number } | null): { x: number; y: number } {
  const left = Math.min(...clip.nodes.map((node) => node.position?.x ?? 0));
  const top = Math.min(...clip.nodes.map((node) => node.position?.y ?? 0));
  return at ? { x: at.x - left, y: at.y - top } : { x: 40, y: 40 };
}

/**
 * A new node's config (its type's default) with the ids of its body's nodes renamed where the workflow
 * already uses them: node ids are unique across a workflow, and a second map would repeat the first's.
 */
export function withFreeBodyIds(config: Readonly<Record<string, JsonValue>>, taken: ReadonlySet<string>): Record<string, JsonValue> {
  if (config["body"] === undefined) return { ...config };
  const used = new Set(taken);
  const rename = (id: string) => {
    if (used.has(id)) return renamedId(id, used);
    used.add(id);
    return id;
  };
  return { ...config, body: renameBody(config["body"]!, rename) };
}
