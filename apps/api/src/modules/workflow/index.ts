/**
 * The workflow module's doorway: what other modules, the schema and the server may use. Everything else
 * in this folder is internal to the module.
 */
export { WorkflowService } from "./workflow.service.js";
export { WorkflowResolver } from "./workflow.resolver.js";
export { WorkflowGraphResolver } from "./workflow-graph.resolver.js";
export { WorkflowNodeResolver } from "./workflow-node.resolver.js";
export { WorkflowSubscriptionResolver } from "./workflow-subscription.resolver.js";
export { PromptSetObject, WorkflowEdgeObject, WorkflowNodeObject, WorkflowObject } from "./workflow.type.js";
export { WorkflowPayload } from "./workflow-payload.type.js";
export { graphEdgeObjects, graphNodeObjects, toPromptSetObject } from "./workflow.mapper.js";
export { toSettingsObjects } from "./workflow-settings.mapper.js";
export { LoopDeclarationObject, StateChannelObject, WorkflowLimitsObject } from "./workflow-settings.type.js";
export { checkText } from "./workflow-input.validation.js";
export { readWorkflow } from "./workflow-read.js";
export type { AfterImport } from "./workflow-document.service.js";
export { PromptSetInput } from "./workflow.input.js";
export { WORKFLOW_INPUT_LIMITS } from "./workflow-input.limits.js";
export { insertWorkflow } from "./workflow-insert.js";
// The workflow lock as other modules see it: work on the draft while no edit can change it (run starts,
// publishing). Edits, settings and deletion take the same lock inside this module.
export { withLockedDraft, LOCKED_TRANSACTION_OPTIONS, type LockedDraft } from "./workflow-lock.js";
// A run of the draft off a thread reads it without the lock and commits in one statement guarded by its version.
export { DraftSnapshots, type DraftSnapshot } from "./draft-snapshots.js";
