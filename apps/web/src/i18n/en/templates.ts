/** The "new workflow from template" list, by template id (the server's names and lines are English and name seeds). */
export const templates = {
  "demo.name": "Draft, check and merge",
  "demo.description": "A first workflow: draft an answer to a question with a note, check it and merge the two, on the offline echo model.",
  "seed-001-adaptive-rag.name": "Adaptive RAG with routing, subtasks and answer checks",
  "seed-001-adaptive-rag.description": "A router picks a direct answer, a history-aware rewrite or planned subtasks; graders loop the synthesis back.",
  "seed-002-query-flow.name": "Query flow with a semantic cache and a retrieval loop",
  "seed-002-query-flow.description": "A semantic cache in front, multi-query retrieval with a sufficiency loop, rerank and a hallucination check.",
  "seed-003-parallel-self-rag.name": "Gwangju pop-up guide chatbot",
  "seed-003-parallel-self-rag.description": "A guardrail, parallel retrieval and web search, and Self-RAG answer checks.",
  "seed-004-codeweaver.name": "CodeWeaver: plan, answer each question, refine",
  "seed-004-codeweaver.description": "Plan the questions, answer each with cached workers and three searches, refine once.",
} as const;
