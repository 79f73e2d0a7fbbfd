/** Scopes of an API key. `admin` implies all others. */
export const API_KEY_SCOPES = ["read", "write", "run", "admin"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Who is calling. `keyId` is null only when authentication is disabled (local development). */
export interface AuthInfo {
  keyId: string | null;
  scopes: ReadonlySet<ApiKeyScope>;
  authenticated: boolean;
}

export function hasScope(auth: AuthInfo, scope: ApiKeyScope): boolean {
  return auth.scopes.has("admin") || auth.scopes.has(scope);
}

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

export const ANONYMOUS: AuthInfo = Object.freeze({ keyId: null, scopes: new Set<ApiKeyScope>(), authenticated: false });

/** Everything is allowed when WEFT_AUTH=disabled; the server is then bound to loopback. */
export const AUTH_DISABLED: AuthInfo = Object.freeze({
  keyId: null,
  scopes: new Set<ApiKeyScope>(["admin"]),
  authenticated: true,
});
