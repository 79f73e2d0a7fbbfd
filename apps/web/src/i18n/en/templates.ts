/** One line per template of the "new workflow from template" list, by template id (the server's are English). */
export const templates = {
  "demo": "The seed-000 demo: draft, check and merge a question with a note, on the offline echo model.",
  "seed-001-adaptive-rag": "Adaptive RAG: a router picks a direct answer, a history-aware rewrite or planned subtasks; graders loop the synthesis back.",
  "seed-002-query-flow": "Query flow: a semantic cache in front, multi-query retrieval with a sufficiency loop, rerank and a hallucination check.",
  "seed-003-parallel-self-rag": "A pop-up guide chatbot: a guardrail, parallel retrieval and web search, and Self-RAG answer checks.",
  "seed-004-codeweaver": "CodeWeaver: plan the questions, answer each with cached workers and three searches, refine once.",
} as const;
