import type { WorkflowNode } from "@weft/engine";

/** A node the finder lists, and where the query matched it. */
export interface FoundNode {
  id: string;
  type: string;
  /** `id`, `type` or `text` (its content, prompt or settings). */
  matched: "id" | "type" | "text";
  /** A short piece of the text around the match, when it matched there. */
  excerpt: string | null;
}

const EXCERPT = 60;

function excerptAround(text: string, at: number): string {
  const start = Math.max(0, at - 20);
  const piece = text.slice(start, start + EXCERPT).replace(/\s+/g, " ");
  return `${start > 0 ? "…" : ""}${piece}${start + EXCERPT < text.length ? "…" : ""}`;
}

/** What a node says in words: its content, prompt and settings (bodies included). */
function textOf(node: WorkflowNode): string {
  return [node.content ?? "", node.prompt ?? "", node.model ?? "", node.config ? JSON.stringify(node.config) : ""].join("\n");
}

/**
 * The nodes a query finds (case-insensitive): by id first, then by type (its name or its label in the
 * UI's language), then by text. An empty query lists every node.
 */
export function findNodes(nodes: readonly WorkflowNode[], query: string, typeLabel: (type: string) => string, limit = 30): FoundNode[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return nodes.slice(0, limit).map((node) => ({ id: node.id, type: node.type, matched: "id", excerpt: null }));
  const byId: FoundNode[] = [];
  const byType: FoundNode[] = [];
  const byText: FoundNode[] = [];
  for (const node of nodes) {
    if (node.id.toLowerCase().includes(needle)) byId.push({ id: node.id, type: node.type, matched: "id", excerpt: null });
    else if (node.type.toLowerCase().includes(needle) || typeLabel(node.type).toLowerCase().includes(needle)) byType.push({ id: node.id, type: node.type, matched: "type", excerpt: null });
    else {
      const text = textOf(node);
      const at = text.toLowerCase().indexOf(needle);
      if (at >= 0) byText.push({ id: node.id, type: node.type, matched: "text", excerpt: excerptAround(text, at) });
    }
  }
  return [...byId, ...byType, ...byText].slice(0, limit);
}
