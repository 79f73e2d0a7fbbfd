import { WeftError } from "@weft/engine";

/** What a secret's value becomes wherever it would be shown (SPEC-V3 §3). */
export const SECRET_SHOWN = "[secret]";

/**
 * The secret values a client sent, and their removal from what it gives back: a server that echoes a key
 * (in a body, a header, a redirect's URL, an error message, a tool's result) cannot put it into events,
 * node runs, logs or exports. Also their URL-encoded forms, since a secret in a URL travels encoded.
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
    if (this.#values.size === 0) return text;
    let result = text;
    // Longest first, so a value that contains another is replaced whole.
    for (const value of [...this.#values].sort((a, b) => b.length - a.length)) result = result.replaceAll(value, SECRET_SHOWN);
    return result;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.text(value)]));
  }

  /** A parsed JSON value (a tool's result, an error's details) with every string in it cleaned, keys included. */
  value<T>(value: T): T {
    if (this.#values.size === 0) return value;
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.value(item)) as T;
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.value(item)])) as T;
  }

  /**
   * The same error, cleaned in place (its class, code and fields kept): its message, stack and details;
   * an Error it wraps (its cause, which loggers print too, and which may keep a server's whole answer and
   * headers) is replaced by its name and cleaned message only.
   */
  error<E>(error: E): E {
    if (this.#values.size === 0 || !(error instanceof Error)) return error;
    // Assigned only when changed: a DOMException (an AbortError) has a read-only message, and never holds a secret.
    const message = this.text(error.message);
    if (message !== error.message) error.message = message;
    const stack = error.stack === undefined ? undefined : this.text(error.stack);
    if (stack !== error.stack) error.stack = stack;
    if (error.cause instanceof Error) error.cause = Object.assign(new Error(this.text(error.cause.message)), { name: error.cause.name });
    if (error instanceof WeftError && error.details !== undefined) Object.assign(error, { details: this.value(error.details) });
    return error;
  }
}
