/** The secret module's doorway: the store the server reads provider keys from, and its resolvers. */
export { SecretService, MAX_SECRET_VALUE_BYTES } from "./secret.service.js";
export { SecretResolver } from "./secret.resolver.js";
