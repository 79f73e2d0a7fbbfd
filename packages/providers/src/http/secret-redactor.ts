import { WeftError } from "@weft/engine";

/** What a secret's value becomes wherever it would be shown (SPEC-V3 §3). */
export const SECRET_SHOWN = "[secret]";

/**
 * The secret values one call used, and their removal from what the call gives back: a server that echoes
 * a key (in a body, a header, a redirect's URL, an error message) cannot put it into events, node runs,
 * logs or exports. Also their URL-encoded forms, since a secret in a URL travels encoded.
 */
export class SecretRedactor {
  readonly #values = new Set<string>();

  add(value: string): void {
    // A value of one or two characters would blank out ordinary text; secrets are longer (createSecret takes 1..16,384 bytes).
    if (value.length < 3) return;
    this.#values.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.#values.add(encoded);
  }

  text(text: string): string {
    let result = text;
    // Longest first, so a value that contains another is replaced whole.
    for (const value of [...this.#values].sort((a, b) => b.length - a.length)) result = result.replaceAll(value, SECRET_SHOWN);
    return result;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.text(value)]));
  }

  error(error: unknown): unknown {
    if (this.#values.size === 0 || !(error instanceof Error)) return error;
    const message = this.text(error.message);
    if (message === error.message) return error;
    if (error instanceof WeftError) return new WeftError(error.code, message, { audience: error.audience, ...(error.details ? { details: JSON.parse(this.text(JSON.stringify(error.details))) as Record<string, unknown> } : {}) });
    return new Error(message);
  }
}
