import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's `examples/` folder, where the seed pipelines and their knowledge bases live; the same from src/ and dist/. */
export const defaultExamplesDir = fileURLToPath(new URL("../../../../../examples/", import.meta.url));

/** Where a template's workflow comes from: the demo built in code, or a weft.workflow file in examples/. */
export type TemplateSource = { kind: "demo" } | { kind: "file"; file: string };

export interface TemplateEntry {
  id: string;
  /** One line on what it does, for the "new workflow from template" list. */
  description: string;
  source: TemplateSource;
}

/**
 * The templates the admin UI offers: the seed-000 demo and the four seed pipelines (docs/templates.md).
 * Every one runs offline (offline and scripted models, the offline web search, knowledge bases made from
 * the Markdown folders in examples/knowledge-bases/).
 */
export const TEMPLATES: readonly TemplateEntry[] = [
  {
    id: "demo",
    description: "A first workflow: draft an answer to a question with a note, check it and merge the two, on the offline echo model.",
    source: { kind: "demo" },
  },
  {
    id: "seed-001-adaptive-rag",
    description: "Adaptive RAG: a router picks a direct answer, a history-aware rewrite or planned subtasks; graders loop the synthesis back.",
    source: { kind: "file", file: "seed-001-adaptive-rag.json" },
  },
  {
    id: "seed-002-query-flow",
    description: "Query flow: a semantic cache in front, multi-query retrieval with a sufficiency loop, rerank and a hallucination check.",
    source: { kind: "file", file: "seed-002-query-flow.json" },
  },
  {
    id: "seed-003-parallel-self-rag",
    description: "A pop-up guide chatbot: a guardrail, parallel retrieval and web search, and Self-RAG answer checks.",
    source: { kind: "file", file: "seed-003-parallel-self-rag.json" },
  },
  {
    id: "seed-004-codeweaver",
    description: "CodeWeaver: plan the questions, answer each with cached workers and three searches, refine once.",
    source: { kind: "file", file: "seed-004-codeweaver.json" },
  },
];

/** The knowledge-base folder of a name, inside examples/knowledge-bases/. */
export function knowledgeBaseFolder(examplesDir: string, name: string): string {
  return path.join(examplesDir, "knowledge-bases", name);
}

/** Every knowledge-base name a document names (`knowledgeBase` on nodes, in bodies, and on the workflow). */
export function knowledgeBasesNamed(document: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "knowledgeBase" && typeof inner === "string" && inner) found.add(inner);
      else walk(inner);
    }
  };
  walk(document);
  return [...found].sort();
}
