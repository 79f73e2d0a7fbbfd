/** The semantic-cache module's doorway: listing and clearing the cache nodes' caches through the API. */
export { SemanticCacheService } from "./semantic-cache.service.js";
export { SemanticCacheResolver } from "./semantic-cache.resolver.js";
