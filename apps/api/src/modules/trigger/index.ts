/** The trigger module's doorway: webhooks and schedules that start runs (SPEC-V3 §5). */
export { TriggerService } from "./trigger.service.js";
export { TriggerFiringService } from "./trigger-firing.service.js";
export { TriggerResolver } from "./trigger.resolver.js";
export { IDEMPOTENCY_HEADER, SIGNATURE_HEADER } from "./webhook-request.js";
export { sweepFirings } from "./trigger-firing.store.js";
export { InProcessTriggerScheduler } from "./schedule/in-process-trigger-scheduler.js";
export { BullTriggerScheduler } from "./schedule/bull-trigger-scheduler.js";
export type { TriggerScheduler } from "./schedule/trigger-scheduler.js";
