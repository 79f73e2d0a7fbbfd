import type { AuthChecker } from "type-graphql";
import { AppError } from "../errors/app-error.js";
import type { GraphQLContext } from "../graphql/context.js";
import { hasScope, isApiKeyScope } from "./auth-info.js";

/**
 * `@Authorized("read" | "write" | "run" | "admin")`. Throws instead of returning false so clients get
 * our codes: UNAUTHENTICATED (no or unknown key) or FORBIDDEN (key lacks the scope).
 */
export const authChecker: AuthChecker<GraphQLContext, string> = ({ context }, scopes) => {
  if (!context.auth.authenticated) {
    throw new AppError("UNAUTHENTICATED", "an API key is required: send `Authorization: Bearer <key>`");
  }
  const missing = scopes.filter((scope) => !isApiKeyScope(scope) || !hasScope(context.auth, scope));
  if (missing.length > 0) {
    throw new AppError("FORBIDDEN", `this API key lacks the scope ${missing.join(", ")}`, {
      extensions: { requiredScopes: scopes },
    });
  }
  return true;
};
