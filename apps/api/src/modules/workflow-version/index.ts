/** The workflow-version module's doorway: what the schema and the server may use. */
export { WorkflowVersionService, type PublishGateCheck } from "./workflow-version.service.js";
export { WorkflowVersionResolver } from "./workflow-version.resolver.js";
export { WorkflowVersionsFieldResolver } from "./workflow-versions-field.resolver.js";
export { WorkflowDocumentsResolver } from "./workflow-documents.resolver.js";
export type { VersionContent } from "./version-content-cache.js";
