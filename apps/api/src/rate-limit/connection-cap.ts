import { randomUUID } from "node:crypto";
import type { BudgetStore } from "./caller-budget.js";

/**
 * Open WebSocket connections per caller. `tryOpen` returns a place to give back with `release` when the
 * socket closes, or null when the caller is at the cap. A cap of 0 allows any number.
 */
export interface ConnectionCap {
  readonly maxPerCaller: number;
  tryOpen(caller: string): Promise<string | null>;
  release(caller: string, place: string): void;
  /** Stops background work (renewals). */
  stop?(): void;
}

/** Counted in this process: sockets belong to the process that accepted them. */
export class MemoryConnectionCap implements ConnectionCap {
  readonly #open = new Map<string, Set<string>>();

  constructor(readonly maxPerCaller: number) {}

  async tryOpen(caller: string): Promise<string | null> {
    const open = this.#open.get(caller) ?? new Set<string>();
    if (this.maxPerCaller > 0 && open.size >= this.maxPerCaller) return null;
    const place = randomUUID();
    open.add(place);
    this.#open.set(caller, open);
    return place;
  }

  release(caller: string, place: string): void {
    const open = this.#open.get(caller);
    open?.delete(place);
    if (open?.size === 0) this.#open.delete(caller);
  }

  openFor(caller: string): number {
    return this.#open.get(caller)?.size ?? 0;
  }
}

/** A place lasts this long unless its process renews it: a crashed process's sockets stop counting by then. */
const PLACE_TTL_MS = 60_000;
const RENEW_EVERY_MS = 20_000;

/** Drops expired places, then adds one if fewer than the cap are open: atomic, in Redis. */
const TRY_OPEN = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if tonumber(ARGV[4]) > 0 and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * The cap counted across API processes in Redis: one sorted set per caller whose members are the open
 * sockets' places, scored by when they expire. Each process renews its own places while their sockets
 * are open, so the places of a process that died expire within a minute. While Redis is away, the
 * process's own count decides (as without Redis).
 */
export class RedisConnectionCap implements ConnectionCap {
  readonly #local: MemoryConnectionCap;
  readonly #mine = new Map<string, string>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    readonly maxPerCaller: number,
    private readonly store: BudgetStore,
  ) {
    this.#local = new MemoryConnectionCap(maxPerCaller);
    this.#timer = setInterval(() => void this.#renew(), RENEW_EVERY_MS);
    this.#timer.unref();
  }

  async tryOpen(caller: string): Promise<string | null> {
    if (this.maxPerCaller <= 0) return this.#local.tryOpen(caller);
    const place = await this.#local.tryOpen(caller);
    if (place === null) return null;
    try {
      const now = Date.now();
      const opened = await this.store.redis.eval(TRY_OPEN, 1, this.#key(caller), now, now + PLACE_TTL_MS, place, this.maxPerCaller, 2 * PLACE_TTL_MS);
      if (opened !== 1) {
        this.#local.release(caller, place);
        return null;
      }
      this.#mine.set(place, caller);
    } catch {
      // Redis away: this process's own count stands in.
    }
    return place;
  }

  release(caller: string, place: string): void {
    this.#local.release(caller, place);
    if (this.#mine.delete(place)) this.store.redis.zrem(this.#key(caller), place).catch(() => undefined);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #renew(): Promise<void> {
    if (this.#mine.size === 0) return;
    const expires = Date.now() + PLACE_TTL_MS;
    const pipeline = this.store.redis.pipeline();
    for (const [place, caller] of this.#mine) pipeline.zadd(this.#key(caller), "XX", expires, place);
    await pipeline.exec().catch(() => undefined);
  }

  #key(caller: string): string {
    return `${this.store.prefix}:ws:${caller}`;
  }
}
