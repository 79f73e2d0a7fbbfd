/** The API-key module's doorway: what authentication, the command line, the schema and the server may use. */
export { ApiKeyService } from "./api-key.service.js";
export { ApiKeyResolver } from "./api-key.resolver.js";
