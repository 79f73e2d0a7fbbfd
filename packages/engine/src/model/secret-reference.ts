/** What a stored secret's name may be (createSecret), and so what `{secret.NAME}` may name. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * `{secret.NAME}`: a stored secret, named in an operator's or a workflow's settings and filled in by the
 * host when it is sent, never written anywhere (docs/secrets.md). The one pattern of a reference: the
 * `http` node's settings, the providers file's keys and MCP servers' headers all read it (global: use it
 * with matchAll or replace, or copy it before `test`).
 */
export const SECRET_REFERENCE = new RegExp(`\\{secret\\.(${SECRET_NAME.source.slice(1, -1)})\\}`, "g");

/** The names a text's `{secret.NAME}` references name (`Bearer {secret.TOKEN}` → `["TOKEN"]`), in order. */
export function secretReferencesIn(text: string): string[] {
  return [...text.matchAll(SECRET_REFERENCE)].map((match) => match[1]!);
}
