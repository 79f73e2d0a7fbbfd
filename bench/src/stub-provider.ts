import type { LlmProvider, LlmReply, LlmRequest, LlmStreamChunk } from "@weft/engine";

const REPLY: LlmReply = {
  text: JSON.stringify({ description: "stub", output: "stub output" }),
  model: "stub",
  usage: null,
};

/** The zero-latency model both engines call: it answers at once with a fixed ResultParser-shaped reply. */
export async function stubComplete(_request: LlmRequest): Promise<LlmReply> {
  return REPLY;
}

export const stubProvider: LlmProvider = {
  id: "stub",
  label: "Zero-latency stub (benchmarks)",
  models: [{ id: "stub", label: "stub", testOnly: true }],
  complete: (request) => stubComplete(request),
  async *stream(request): AsyncIterable<LlmStreamChunk> {
    yield { type: "done", reply: await stubComplete(request) };
  },
};
