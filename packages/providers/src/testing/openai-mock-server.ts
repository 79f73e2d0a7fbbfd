import { ChatCompletionsMockServer, type ChatDialect, type ChatMockServerOptions } from "./chat-completions-mock-server.js";

/**
 * A local HTTP server that speaks OpenAI's wire protocol (chat completions with SSE streaming and tool
 * calls streamed in pieces, embeddings, OpenAI's `{"error": {message, type, param, code}}` bodies), as
 * OpenAI and the compatible servers (Ollama, vLLM, llama.cpp) do. Tests drive the real `openai` SDK
 * against it with `baseURL: server.baseURL`.
 */

const MESSAGES: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: "Invalid request.", type: "invalid_request_error", code: null },
  401: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" },
  404: { message: "The model `unknown-model` does not exist or you do not have access to it.", type: "invalid_request_error", code: "model_not_found" },
  429: { message: "Rate limit reached for requests.", type: "requests", code: "rate_limit_exceeded" },
  500: { message: "The server had an error while processing your request.", type: "server_error", code: null },
  503: { message: "The engine is currently overloaded, please try again later.", type: "server_error", code: null },
};

/** The JSON body OpenAI's API sends with an error status. */
export function openAiErrorBody(status: number): unknown {
  const known = MESSAGES[status] ?? { message: `Error ${status}`, type: "error", code: null };
  return { error: { message: known.message, type: known.type, param: null, code: known.code } };
}

const OPENAI_DIALECT: ChatDialect = {
  errorBody: openAiErrorBody,
  toolCallsInPieces: true,
  defaultModel: "gpt-4o-mini",
  embeddingModel: "text-embedding-3-small",
  embeddingDimension: 1536,
};

export class OpenAiMockServer extends ChatCompletionsMockServer {
  static async start(options: ChatMockServerOptions = {}): Promise<OpenAiMockServer> {
    const mock = new OpenAiMockServer(OPENAI_DIALECT, options);
    await mock.listen();
    return mock;
  }

  /** What the `openai` SDK's `baseURL` (and OPENAI_BASE_URL) takes: the root with `/v1`. */
  get baseURL(): string {
    return `${this.url}/v1`;
  }
}
