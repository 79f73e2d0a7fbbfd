/** The knowledge-base module's doorway: what the schema, the server and the event bus may use. */
export { KnowledgeBaseService } from "./knowledge-base.service.js";
export { KnowledgeBaseResolver } from "./knowledge-base.resolver.js";
export { KnowledgeBaseDocumentResolver } from "./knowledge-base-document.resolver.js";
export { KnowledgeBaseSubscriptionResolver } from "./knowledge-base-subscription.resolver.js";
export { createKnowledgeBaseRetriever, createRetrievalSetup, hasPgvector, type RetrievalSetup } from "./retrieval-setup.js";
