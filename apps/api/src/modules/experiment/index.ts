/** The experiment module's doorway: experiments, their results, summaries and comparisons (SPEC-V3 §4). */
export { ExperimentService, EXPERIMENT_LIMITS, experimentSlots } from "./experiment.service.js";
export { ExperimentResolver, ExperimentSubscriptionResolver } from "./experiment.resolver.js";
export { PublishGateService } from "./publish-gate.service.js";
export { PublishGateResolver } from "./publish-gate.resolver.js";
