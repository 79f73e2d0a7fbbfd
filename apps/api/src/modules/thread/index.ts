/** The thread module's doorway: the service and resolver for the schema and the server, the turn functions for runs. */
export { ThreadService, toThreadObject } from "./thread.service.js";
export { ThreadResolver } from "./thread.resolver.js";
export { ThreadObject } from "./thread.type.js";
export { claimThread, DatabaseThreadHistory, recordingTurn, recordTurn, type ClaimedThread, type CompletedTurn, type ThreadRun } from "./thread-turn.js";
export { threadRetention } from "./thread-retention.js";
