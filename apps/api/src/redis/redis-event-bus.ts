import type { Redis } from "ioredis";
import type { Logger } from "../logger.js";
import type { EventBus, SubscribeOptions, TopicName, Topics, Unsubscribe } from "../pubsub.js";
import { closeRedis, connectRedis } from "./redis-connection.js";

/** SUBSCRIBE attempts when the connection drops under it. */
const RESUBSCRIBE_ATTEMPTS = 5;
const READY_WAIT_MS = 30_000;

function waitForReady(redis: Redis): Promise<void> {
  if (redis.status === "ready") return new Promise((resolve) => setTimeout(resolve, 100));
  return new Promise((resolve) => {
    const timer = setTimeout(done, READY_WAIT_MS);
    function done() {
      clearTimeout(timer);
      redis.removeListener("ready", done);
      resolve();
    }
    redis.once("ready", done);
  });
}

interface Listener {
  deliver: (payload: never) => void;
  onResync?: () => void;
}

interface ChannelEntry {
  listeners: Set<Listener>;
  /** Settles once Redis has acknowledged the SUBSCRIBE (rejects if it could not be sent). */
  subscribed: Promise<void>;
}

/**
 * The event bus across processes, on Redis pub/sub. Each process holds ONE subscriber connection and
 * fans messages out to its local listeners: a thousand WebSocket subscribers of one run cost one Redis
 * subscription. `subscribe` resolves after Redis acknowledged the channel, so whatever is published after
 * it resolves is delivered (the replay-then-live contract of runEvents relies on it).
 *
 * Redis pub/sub delivers at most once: messages published while a connection is down are lost. When the
 * subscriber connection comes back, every channel is subscribed again and then each listener's
 * `onResync` is called, so a listener that can read what it missed from the database does so. Publishing
 * never waits for a Redis that is away: the message is dropped (it is stored already, and subscribers
 * resynchronise), and the run goes on.
 */
export class RedisEventBus implements EventBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #logger: Logger;
  readonly #channels = new Map<string, ChannelEntry>();
  #dropped = 0;
  #everReady = false;
  #closed = false;

  constructor(options: { url: string; prefix: string; logger: Logger }) {
    this.#prefix = `${options.prefix}:bus:`;
    this.#logger = options.logger;
    this.#publisher = connectRedis(options.url, "publish", options.logger, { offline: false });
    this.#subscriber = connectRedis(options.url, "subscribe", options.logger);
    this.#subscriber.on("messageBuffer", (channel: Buffer, message: Buffer) => this.#deliver(channel.toString(), message));
    this.#subscriber.on("ready", () => {
      if (this.#everReady) void this.#resubscribe();
      this.#everReady = true;
    });
  }

  /** Messages dropped because Redis was away when they were published. */
  get dropped(): number {
    return this.#dropped;
  }

  async publish<T extends TopicName>(topic: T, channel: string, payload: Topics[T]): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#publisher.publish(this.#prefix + `${topic}:${channel}`, JSON.stringify(payload));
    } catch (error) {
      this.#dropped += 1;
      if (this.#dropped === 1 || this.#dropped % 1000 === 0) {
        this.#logger.warn({ topic, dropped: this.#dropped, err: { message: (error as Error).message } }, "event not published: Redis is away; subscribers catch up when it is back");
      }
    }
  }

  async subscribe<T extends TopicName>(
    topic: T,
    channel: string,
    listener: (payload: Topics[T]) => void,
    options: SubscribeOptions = {},
  ): Promise<Unsubscribe> {
    const key = this.#prefix + `${topic}:${channel}`;
    let entry = this.#channels.get(key);
    if (!entry) {
      entry = { listeners: new Set(), subscribed: this.#acknowledged(key) };
      this.#channels.set(key, entry);
    }
    const own: Listener = { deliver: listener as (payload: never) => void, ...(options.onResync ? { onResync: options.onResync } : {}) };
    entry.listeners.add(own);
    const unsubscribe = () => {
      const current = this.#channels.get(key);
      if (!current?.listeners.delete(own) || current.listeners.size > 0) return;
      this.#channels.delete(key);
      // After the SUBSCRIBE settled, so a quick resubscription cannot be undone by this UNSUBSCRIBE.
      void current.subscribed
        .catch(() => undefined)
        .then(() => (this.#channels.has(key) || this.#closed ? undefined : this.#subscriber.unsubscribe(key)))
        .catch(() => undefined);
    };
    try {
      await entry.subscribed;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  /**
   * SUBSCRIBE, acknowledged by Redis. A connection that drops while the command is on its way fails it;
   * it is sent again once the connection is back (a few times), so a subscriber arriving during a Redis
   * restart waits for Redis instead of failing.
   */
  async #acknowledged(key: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.#subscriber.subscribe(key);
        return;
      } catch (error) {
        if (this.#closed || attempt >= RESUBSCRIBE_ATTEMPTS) throw error;
        await waitForReady(this.#subscriber);
      }
    }
  }

  /** Local subscriptions and the Redis channels behind them (tests check that streams clean up). */
  stats(): { channels: number; listeners: number } {
    let listeners = 0;
    for (const entry of this.#channels.values()) listeners += entry.listeners.size;
    return { channels: this.#channels.size, listeners };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    await Promise.all([closeRedis(this.#publisher), closeRedis(this.#subscriber)]);
  }

  #deliver(key: string, message: Buffer): void {
    const entry = this.#channels.get(key);
    if (!entry) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message.toString("utf8"));
    } catch {
      this.#logger.warn({ channel: key }, "ignored a bus message that is not JSON");
      return;
    }
    for (const listener of [...entry.listeners]) {
      try {
        listener.deliver(payload as never);
      } catch {
        // One broken subscriber must not stop delivery to the others; listeners only buffer.
      }
    }
  }

  /** After a reconnection: every channel again, acknowledged, then the listeners catch up. */
  async #resubscribe(): Promise<void> {
    const keys = [...this.#channels.keys()];
    if (keys.length === 0) return;
    try {
      await this.#subscriber.subscribe(...keys);
    } catch (error) {
      // The connection dropped again; the next "ready" tries again.
      this.#logger.warn({ err: { message: (error as Error).message } }, "could not subscribe again after a Redis reconnection");
      return;
    }
    this.#logger.info({ channels: keys.length }, "subscribed again after a Redis reconnection; listeners catch up from the database");
    for (const key of keys) {
      for (const listener of [...(this.#channels.get(key)?.listeners ?? [])]) {
        try {
          listener.onResync?.();
        } catch {
          // Same as delivery: one listener's failure is its own.
        }
      }
    }
  }
}
