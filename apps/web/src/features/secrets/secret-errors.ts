import type { CombinedError } from "urql";
import type { MessageKey } from "@/i18n/dictionary.type";
import { codeWords } from "@/ui/user-errors";

export interface SecretRefusal {
  code: string;
  message: string;
  /** The input at fault ("name", "value"), when the server said. */
  field: string | null;
}

/**
 * A refusal's text: the page's own sentence for a code it words (`secrets.error.*`: the secrets API's codes,
 * and FORBIDDEN for a key without admin), else the server's message, always with the code.
 */
export function secretErrorText(t: (key: MessageKey) => string, refusal: Pick<SecretRefusal, "code" | "message">): string {
  const text = codeWords(t, "secrets.error.", refusal.code) ?? refusal.message;
  return `${text} [${refusal.code}]`;
}

/** The refusals of a mutation: its user errors as data, or the GraphQL error's code (FORBIDDEN for a key without admin). */
export function refusalsOf(error: CombinedError | undefined, errors: readonly { code: string; message: string; path?: readonly string[] | null }[] | undefined): SecretRefusal[] {
  if (error) {
    const graphQL = error.graphQLErrors.map((e) => ({ code: String(e.extensions?.code ?? "INTERNAL"), message: e.message, field: null }));
    return graphQL.length > 0 ? graphQL : [{ code: "NETWORK", message: error.message, field: null }];
  }
  return (errors ?? []).map((e) => ({ code: e.code, message: e.message, field: e.path?.[e.path.length - 1] ?? null }));
}
