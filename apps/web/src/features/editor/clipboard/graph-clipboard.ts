import { isJsonObject, type JsonValue, type WorkflowEdge, type WorkflowNode } from "@weft/engine";
import { edgeKey, type EdgeKey } from "../history/edit-history";

/**
 * Copy and paste of a selection of nodes: the nodes with their settings and the data edges between
 * them, as text on the system clipboard (so it reaches another workflow, in another tab too). Pasting
 * renames every id (bodies' nodes included: node ids are unique across a workflow) and moves the nodes
 * so they do not cover what they were copied from. Loop edges are not copied: a loop belongs to the
 * workflow that declares it.
 */

export const CLIPBOARD_FORMAT = "weft.clipboard/v1";

/** Guards what a paste reads: text from the clipboard is anyone's. */
export const CLIPBOARD_LIMITS = { maxNodes: 200, maxTextLength: 2 * 1024 * 1024 } as const;

export interface ClipboardGraph {
  format: typeof CLIPBOARD_FORMAT;
  nodes: WorkflowNode[];
  edges: EdgeKey[];
}

export function copySelection(graph: { nodes: readonly WorkflowNode[]; edges: readonly WorkflowEdge[] }, selected: readonly string[]): ClipboardGraph | null {
  const chosen = new Set(selected);
  const nodes = graph.nodes.filter((node) => chosen.has(node.id));
  if (nodes.length === 0) return null;
  const edges = graph.edges.filter((edge) => !edge.loop && chosen.has(edge.source) && chosen.has(edge.target)).map(edgeKey);
  return { format: CLIPBOARD_FORMAT, nodes: nodes.map((node) => structuredClone(node)), edges };
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
  const edges = clip.edges.filter(
    (edge): edge is EdgeKey => isJsonObject(edge) && typeof edge.source === "string" && typeof edge.target === "string" && ids.has(edge.source) && ids.has(edge.target),
  );
  return nodes.length > 0 ? { format: CLIPBOARD_FORMAT, nodes, edges: edges.map(({ source, target, sourcePort }) => ({ source, target, ...(typeof sourcePort === "string" ? { sourcePort } : {}) })) } : null;
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

/**
 * The copied nodes as new nodes of a graph whose ids (bodies included) are `taken`: renamed, shifted
 * by `offset`, with the edges between them renamed too.
 */
export function pastedGraph(clip: ClipboardGraph, taken: ReadonlySet<string>, offset: { x: number; y: number }): { nodes: WorkflowNode[]; edges: EdgeKey[] } {
  const used = new Set(taken);
  const names = new Map<string, string>();
  for (const node of clip.nodes) names.set(node.id, renamedId(node.id, used));
  const nodes = clip.nodes.map((node) => {
    const position = node.position ?? { x: 0, y: 0 };
    const config = node.config?.["body"] !== undefined ? { ...node.config, body: renameBody(node.config["body"]!, (id) => renamedId(id, used)) } : node.config;
    return { ...node, id: names.get(node.id)!, position: { x: Math.round(position.x + offset.x), y: Math.round(position.y + offset.y) }, ...(config ? { config } : {}) };
  });
  const edges = clip.edges.map((edge) => ({ ...edge, source: names.get(edge.source)!, target: names.get(edge.target)! }));
  return { nodes, edges };
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
