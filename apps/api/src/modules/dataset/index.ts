/** The dataset module's doorway: datasets and their rows (SPEC-V3 §4). */
export { DatasetService, type DatasetDeletionGuard } from "./dataset.service.js";
export { DatasetResolver } from "./dataset.resolver.js";
export { DatasetObject, DatasetRowObject } from "./dataset.type.js";
export { toDatasetRowObject } from "./dataset.mapper.js";
