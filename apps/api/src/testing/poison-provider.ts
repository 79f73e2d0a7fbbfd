import { OfflineLlmProvider, type LlmProvider, type LlmReply, type LlmRequest, type LlmStreamChunk } from "@weft/engine";

/**
 * The offline provider, except that a node whose params say `killWorker: true` kills the process that
 * calls its model, at once (SIGKILL: no handler runs, nothing is flushed): a poison run, for the crash
 * tests. It replaces `offline` in the worker processes those tests start (poison-worker-main.ts) and
 * nowhere else, so the API processes accept the run as an ordinary offline one.
 */
export class PoisonedOfflineProvider implements LlmProvider {
  readonly #offline = new OfflineLlmProvider();
  readonly id = this.#offline.id;
  readonly label = this.#offline.label;
  readonly models = this.#offline.models;

  complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    killIfPoisoned(request);
    return this.#offline.complete(request, signal);
  }

  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    killIfPoisoned(request);
    return this.#offline.stream(request, signal);
  }
}

function killIfPoisoned(request: LlmRequest): void {
  if (request.params["killWorker"] === true) process.kill(process.pid, "SIGKILL");
}
