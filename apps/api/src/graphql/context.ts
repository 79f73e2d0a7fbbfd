import type { AuthInfo } from "../auth/auth-info.js";
import type { Logger } from "../logger.js";
import type { Services } from "../services.js";

/** What every resolver receives. Built per HTTP request, and per WebSocket subscription. */
export interface GraphQLContext {
  requestId: string;
  auth: AuthInfo;
  services: Services;
  /** A child logger carrying requestId (and the key id once known). */
  logger: Logger;
}
