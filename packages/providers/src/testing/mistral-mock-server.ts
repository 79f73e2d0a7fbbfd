import { ChatCompletionsMockServer, type ChatDialect, type ChatMockServerOptions } from "./chat-completions-mock-server.js";

export type { ChatBehaviour, EmbeddingsBehaviour, MockErrorBehaviour, MockToolCall, MockUsage, RecordedRequest } from "./chat-completions-mock-server.js";

/**
 * A local HTTP server that speaks Mistral's wire protocol (chat completions with SSE streaming and tool
 * calls, embeddings, Mistral's error bodies). Tests drive the real `@mistralai/mistralai` SDK against it
 * through `serverURL`.
 */

export type MistralMockServerOptions = ChatMockServerOptions;

const ERROR_TYPES: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request" },
  401: { type: "unauthorized", message: "Unauthorized" },
  404: { type: "invalid_model", message: "Invalid model: unknown-model" },
  422: { type: "invalid_request_error", message: "Invalid request" },
  429: { type: "rate_limited", message: "Requests rate limit exceeded" },
  500: { type: "internal_server_error", message: "Internal server error" },
  503: { type: "service_unavailable", message: "Service unavailable" },
};

/** The JSON body Mistral's API sends with an error status. */
export function mistralErrorBody(status: number): unknown {
  if (status === 401) return { message: "Unauthorized", request_id: "mock-request" };
  if (status === 422) {
    return {
      object: "error",
      message: { detail: [{ type: "missing", loc: ["body", "model"], msg: "Field required", input: {} }] },
      type: "invalid_request_error",
      param: null,
      code: null,
    };
  }
  const known = ERROR_TYPES[status] ?? { type: "error", message: `Error ${status}` };
  return { object: "error", message: known.message, type: known.type, param: null, code: String(status) };
}

const MISTRAL_DIALECT: ChatDialect = {
  errorBody: mistralErrorBody,
  toolCallsInPieces: false,
  defaultModel: "mistral-small-latest",
  embeddingModel: "mistral-embed",
  embeddingDimension: 1024,
};

export class MistralMockServer extends ChatCompletionsMockServer {
  static async start(options: MistralMockServerOptions = {}): Promise<MistralMockServer> {
    const mock = new MistralMockServer(MISTRAL_DIALECT, options);
    await mock.listen();
    return mock;
  }
}
