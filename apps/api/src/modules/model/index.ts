/** The model module's doorway. */
export { ModelCatalogService } from "./model-catalog.service.js";
export { ModelResolver } from "./model.resolver.js";
