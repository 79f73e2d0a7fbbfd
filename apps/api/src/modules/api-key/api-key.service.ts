import { hasVisibleCharacter, VISIBLE_NAME } from "@weft/engine";
import type { ApiKey as ApiKeyRow } from "../../generated/prisma/client.js";
import { API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope, type AuthInfo } from "../../auth/auth-info.js";
import { ALL_KEYS, type EventBus } from "../../pubsub.js";
import type { ServiceDeps } from "../../service-deps.js";
import { API_KEY_INPUT_LIMITS } from "./api-key.input.js";
import { displayPrefix, generateApiKey, hashApiKey } from "./api-key.secret.js";
import type { ApiKey } from "./api-key.type.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import type { Outcome } from "../../errors/outcome.js";
import { AuthCache } from "./auth-cache.js";


const MAX_SCOPES = 10;

/** lastUsedAt is refreshed at most this often per key, so reads do not turn into a write each. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/**
 * Creates, lists, revokes and verifies API keys. Keys are stored as SHA-256 hashes only. A revocation
 * is announced on the event bus, so every process closes the WebSockets opened with the key at once and
 * forgets the key's caller (remembered for WEFT_AUTH_CACHE_MS, see auth-cache.ts).
 */
export class ApiKeyService {
  readonly #callers: AuthCache;

  constructor(
    readonly deps: ServiceDeps,
    private readonly bus: EventBus,
  ) {
    this.#callers = new AuthCache(deps.env.WEFT_AUTH_CACHE_MS);
  }

  async create(input: { name: string; scopes: string[] }): Promise<Outcome<{ apiKey: ApiKey; key: string }>> {
    const errors = checkCreateInput(input);
    if (errors.length > 0) return { ok: false, errors };
    const key = generateApiKey();
    const row = await this.deps.db.apiKey.create({
      data: { name: input.name.trim(), prefix: displayPrefix(key), hash: hashApiKey(key), scopes: dedupe(input.scopes) },
    });
    this.deps.logger.info({ apiKeyId: row.id, scopes: row.scopes }, "API key created");
    return { ok: true, value: { apiKey: toApiKey(row), key } };
  }

  /**
   * Stores a key chosen by the operator (WEFT_ADMIN_KEY) as an admin key, unless it is stored already.
   * Returns whether it was added. Several processes starting at once with the same key all succeed:
   * one insert wins, the others skip the duplicate (ON CONFLICT DO NOTHING) instead of failing.
   */
  async ensureKey(key: string, name: string, scopes: ApiKeyScope[]): Promise<boolean> {
    const { count } = await this.deps.db.apiKey.createMany({
      data: [{ name, prefix: displayPrefix(key), hash: hashApiKey(key), scopes }],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async revoke(id: string): Promise<Outcome<ApiKey>> {
    const row = await this.deps.db.apiKey.findUnique({ where: { id } });
    if (!row) return { ok: false, errors: [userError("NOT_FOUND", `API key ${id} does not exist`, { path: ["id"] })] };
    if (row.revokedAt) {
      return { ok: false, errors: [userError("CONFLICT", `API key ${id} is already revoked`, { path: ["id"] })] };
    }
    const revoked = await this.deps.db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    this.forget(id);
    this.deps.logger.info({ apiKeyId: id }, "API key revoked");
    await this.bus.publish("apiKeyRevoked", ALL_KEYS, { keyId: id, at: revoked.revokedAt!.toISOString() });
    return { ok: true, value: toApiKey(revoked) };
  }

  /** Which of these keys are revoked now (or gone): a process checks its open WebSockets with it. */
  async revokedAmong(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const active = await this.deps.db.apiKey.findMany({ where: { id: { in: [...ids] }, revokedAt: null }, select: { id: true } });
    const stillActive = new Set(active.map((row) => row.id));
    return ids.filter((id) => !stillActive.has(id));
  }

  async list(includeRevoked: boolean): Promise<ApiKey[]> {
    const rows = await this.deps.db.apiKey.findMany({
      where: includeRevoked ? {} : { revokedAt: null },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    return rows.map(toApiKey);
  }

  /** The caller behind a presented key, or null when the key is unknown or revoked. */
  async authenticate(key: string): Promise<AuthInfo | null> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const remembered = this.#callers.get(hash, now);
    if (remembered) return remembered;
    const row = await this.deps.db.apiKey.findUnique({ where: { hash } });
    if (!row || row.revokedAt) return null;
    this.#touch(row);
    const caller = { keyId: row.id, scopes: new Set(row.scopes.filter(isApiKeyScope)), authenticated: true };
    this.#callers.set(hash, caller, now);
    return caller;
  }

  /** Forgets the remembered caller of a key revoked here or, as the bus announced, in another process. */
  forget(keyId: string): void {
    this.#callers.forget(keyId);
  }

  #touch(row: ApiKeyRow): void {
    const now = Date.now();
    if (row.lastUsedAt && now - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    // Bookkeeping only: a failure here must not fail the request that used the key.
    this.deps.db.apiKey
      .update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } })
      .catch((error: unknown) => this.deps.logger.warn({ err: error, apiKeyId: row.id }, "could not record key use"));
  }
}

function checkCreateInput(input: { name: string; scopes: string[] }): UserError[] {
  const errors: UserError[] = [];
  const name = input.name.trim();
  if (!hasVisibleCharacter(name)) errors.push(userError("VALIDATION_FAILED", `name ${VISIBLE_NAME}`, { path: ["input", "name"] }));
  if (name.length > API_KEY_INPUT_LIMITS.maxNameLength) {
    errors.push(
      userError("LIMIT_EXCEEDED", `name is longer than ${API_KEY_INPUT_LIMITS.maxNameLength} characters`, {
        path: ["input", "name"],
      }),
    );
  }
  if (input.scopes.length > MAX_SCOPES) {
    errors.push(userError("LIMIT_EXCEEDED", `at most ${MAX_SCOPES} scopes`, { path: ["input", "scopes"] }));
    return errors;
  }
  if (input.scopes.length === 0) {
    errors.push(userError("VALIDATION_FAILED", "give at least one scope", { path: ["input", "scopes"] }));
  }
  input.scopes.forEach((scope, index) => {
    if (!isApiKeyScope(scope)) {
      errors.push(
        userError("VALIDATION_FAILED", `unknown scope "${scope.slice(0, 40)}"; use ${API_KEY_SCOPES.join(", ")}`, {
          path: ["input", "scopes", String(index)],
        }),
      );
    }
  });
  return errors;
}

function dedupe(scopes: string[]): string[] {
  return [...new Set(scopes)];
}
