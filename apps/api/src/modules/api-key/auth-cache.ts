import type { AuthInfo } from "../../auth/auth-info.js";

interface Entry {
  auth: AuthInfo;
  keyId: string;
  until: number;
}

/**
 * The callers behind recently presented keys (by key hash), so that an authenticated request does not
 * cost a database lookup each: remembered for `ttlMs` (0: not at all), at most `maxEntries` (the oldest
 * is dropped first). Only valid keys are remembered; a revocation forgets the key at once in every
 * process that hears of it (the event bus), and a revocation nobody announces (the `revoke-key`
 * command) takes effect here within `ttlMs`.
 */
export class AuthCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(hash: string, now: number): AuthInfo | null {
    const entry = this.#entries.get(hash);
    if (!entry) return null;
    if (entry.until > now) return entry.auth;
    this.#entries.delete(hash);
    return null;
  }

  set(hash: string, auth: AuthInfo & { keyId: string }, now: number): void {
    if (this.ttlMs <= 0) return;
    this.#entries.delete(hash);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(hash, { auth, keyId: auth.keyId, until: now + this.ttlMs });
  }

  forget(keyId: string): void {
    for (const [hash, entry] of this.#entries) if (entry.keyId === keyId) this.#entries.delete(hash);
  }
}
