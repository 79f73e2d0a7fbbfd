import type { ServiceDeps } from "../../services.js";

/** Creates, lists, revokes and verifies API keys. Filled in with the api-key module. */
export class ApiKeyService {
  constructor(readonly deps: ServiceDeps) {}
}
