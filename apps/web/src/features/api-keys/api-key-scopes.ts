export const API_KEY_SCOPES = ["read", "write", "run", "admin"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Toggles a scope in the form. Admin implies the others on the server, so choosing it selects only
 * admin (listing the rest would suggest they could be removed separately).
 */
export function toggleScope(selected: readonly ApiKeyScope[], scope: ApiKeyScope): ApiKeyScope[] {
  if (selected.includes(scope)) return selected.filter((s) => s !== scope);
  if (scope === "admin") return ["admin"];
  return API_KEY_SCOPES.filter((s) => s !== "admin" && (s === scope || selected.includes(s)));
}
