/** The run module's doorway: what the schema and the server may use. */
export { RunService, type TriggerFiringLink, type TriggerStart } from "./run.service.js";
export { RunResolver } from "./run.resolver.js";
export { RunSubscriptionResolver } from "./run-subscription.resolver.js";
export { WorkflowRunsResolver } from "./workflow-runs.resolver.js";
export { ThreadRunsResolver } from "./thread-runs.resolver.js";
/** The run events' object types, reached only through the RunEvent interface: the schema lists them. */
export { RUN_EVENT_KINDS } from "./run-event-kinds.type.js";
/** What was in flight at a worker crash, and the watch a run keeps: for the crash tests' own reading of the events. */
export { inFlight, readCrashWatch } from "./crash-suspects.js";
export { HumanActionObject } from "./run-event.type.js";
/** This process's name in run claims: its run queue names its worker connection after it (crash rule). */
export { WORKER_ID } from "./run-claim.js";
/** How a published workflow is described as a tool: agents' workflow tools and the MCP server's. */
export { toolNameOf, workflowToolParameters, type WorkflowToolParameters } from "./workflow-tools.js";
/** A run's result as JSON when it is a JSON object or array, else its text (webhook answers, MCP results). */
export { runResultValue } from "./run-result-value.js";
