/**
 * The tool calls this process is serving, by caller and JSON-RPC request id, so a
 * `notifications/cancelled` can reach its call. In stateless streamable HTTP the cancellation comes on a
 * POST of its own, which the SDK's per-request server cannot match to the call (it lives in another
 * request's server). Request ids are the client's, so two clients sharing a key may both use id 1: a
 * cancellation that matches more than one call cancels none (the clients can still close the connection).
 */
export class InFlightCalls {
  readonly #calls = new Map<string, Set<AbortController>>();

  /** Registers a call; its signal aborts on cancellation (or `abort`). Call `release` when the call ends. */
  track(caller: string, requestId: string | number): { signal: AbortSignal; abort(): void; release(): void } {
    const key = keyOf(caller, requestId);
    const controller = new AbortController();
    const calls = this.#calls.get(key) ?? new Set<AbortController>();
    calls.add(controller);
    this.#calls.set(key, calls);
    return {
      signal: controller.signal,
      abort: () => controller.abort(),
      release: () => {
        calls.delete(controller);
        if (calls.size === 0 && this.#calls.get(key) === calls) this.#calls.delete(key);
      },
    };
  }

  /** Aborts the one call `caller` made with `requestId`; false when there is none or more than one. */
  cancel(caller: string, requestId: string | number): boolean {
    const calls = this.#calls.get(keyOf(caller, requestId));
    if (!calls || calls.size !== 1) return false;
    for (const controller of calls) controller.abort();
    return true;
  }
}

function keyOf(caller: string, requestId: string | number): string {
  return `${caller}\n${typeof requestId}:${requestId}`;
}
