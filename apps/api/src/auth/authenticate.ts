import { AppError } from "../errors/app-error.js";
import type { Env } from "../env.js";
import type { ApiKeyService } from "../modules/api-key/index.js";
import { ANONYMOUS, AUTH_DISABLED, type AuthInfo } from "./auth-info.js";

/** Longer than any key we issue; anything longer is refused before hashing. */
const MAX_KEY_LENGTH = 256;

/**
 * Resolves the caller from an `Authorization` header value (HTTP) or the `authorization` connection
 * parameter (WebSocket). No header: anonymous (only public fields answer). A header that is not a valid,
 * unrevoked key: UNAUTHENTICATED, so a typo never silently degrades to anonymous.
 */
export async function authenticate(
  header: string | undefined,
  env: Pick<Env, "WEFT_AUTH">,
  apiKeys: Pick<ApiKeyService, "authenticate">,
): Promise<AuthInfo> {
  if (env.WEFT_AUTH === "disabled") return AUTH_DISABLED;
  if (header === undefined || header.trim() === "") return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated("the Authorization header must be `Bearer <key>`");
  const key = match[1]!;
  if (key.length > MAX_KEY_LENGTH) throw unauthenticated("the API key is not valid");
  const auth = await apiKeys.authenticate(key);
  if (!auth) throw unauthenticated("the API key is not valid or has been revoked");
  return auth;
}

function unauthenticated(message: string): AppError {
  return new AppError("UNAUTHENTICATED", message, { extensions: { http: { status: 401 } } });
}
