/**
 * Keeps a subscription alive across dropped connections, resubscribing from the last applied seq.
 *
 * graphql-ws retries by itself and then sends the subscription's variables again, so the caller reads
 * `afterSeq` when they are sent (use-live-run.ts passes a getter); when a subscription ends or fails
 * anyway, each new attempt here asks `afterSeq()` afresh. Either way a reconnect replays only what the
 * page has not seen. The transport is injected: the page passes graphql-ws, the tests pass a scripted one.
 */

export interface StreamSink<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

/** Starts one subscription from `afterSeq`; returns its unsubscribe function. */
export type SubscribeFrom<T> = (afterSeq: number, sink: StreamSink<T>) => () => void;

export type StreamStatus = "connecting" | "live" | "reconnecting" | "done" | "stopped";

export interface ResumableStreamOptions<T> {
  subscribe: SubscribeFrom<T>;
  /** The seq to resume after, read at every (re)subscription. */
  afterSeq: () => number;
  onValue: (value: T) => void;
  onStatus?: (status: StreamStatus, detail?: { attempt: number; error?: unknown }) => void;
  /** True once the stream has everything (the run ended); completion is then final. */
  isFinished: () => boolean;
  /** Delay before attempt n (1-based). Defaults to capped exponential backoff. */
  backoffMs?: (attempt: number) => number;
  schedule?: (callback: () => void, ms: number) => () => void;
}

export const defaultBackoffMs = (attempt: number): number => Math.min(10_000, 250 * 2 ** Math.min(attempt - 1, 6));

const defaultSchedule = (callback: () => void, ms: number): (() => void) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/** Runs the subscription until the stream is finished or `stop()` is called. */
export function startResumableStream<T>(options: ResumableStreamOptions<T>): { stop: () => void } {
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const schedule = options.schedule ?? defaultSchedule;
  let stopped = false;
  let attempt = 0;
  let unsubscribe: (() => void) | null = null;
  let cancelTimer: (() => void) | null = null;

  const retry = (error?: unknown) => {
    unsubscribe = null;
    if (stopped) return;
    attempt += 1;
    options.onStatus?.("reconnecting", { attempt, error });
    cancelTimer = schedule(() => {
      cancelTimer = null;
      connect();
    }, backoff(attempt));
  };

  const connect = () => {
    if (stopped) return;
    options.onStatus?.(attempt === 0 ? "connecting" : "reconnecting", { attempt });
    let ended = false;
    unsubscribe = options.subscribe(options.afterSeq(), {
      next(value) {
        if (stopped || ended) return;
        attempt = 0;
        options.onStatus?.("live", { attempt });
        options.onValue(value);
      },
      error(error) {
        if (ended) return;
        ended = true;
        retry(error);
      },
      complete() {
        if (ended) return;
        ended = true;
        unsubscribe = null;
        if (stopped) return;
        // A server that completes before the run ended (restart, idle close) is treated as a drop.
        if (options.isFinished()) options.onStatus?.("done", { attempt });
        else retry();
      },
    });
  };

  connect();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      cancelTimer?.();
      unsubscribe?.();
      options.onStatus?.("stopped", { attempt });
    },
  };
}
