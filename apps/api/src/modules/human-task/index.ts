/** The human-task module's doorway: the inbox of tasks for people (SPEC-V3 §2). */
export { HumanTaskService, type TaskRuns } from "./human-task.service.js";
export { HumanTaskResolver } from "./human-task.resolver.js";
export { InProcessHumanTaskTimers, type ExpireTask, type HumanTaskTimers } from "./human-task-timers.js";
export { BullHumanTaskTimers } from "./bull-human-task-timers.js";
