import { WeftError, type LlmModelInfo } from "@weft/engine";

/** Model ids the chat APIs use: letters, digits and `._:/-` (Ollama's `llama3.1:8b`, vLLM's `org/model`). */
const MODEL_ID = /^[A-Za-z0-9._:/-]+$/;

export function isModelId(id: string): boolean {
  return MODEL_ID.test(id);
}

/**
 * A `*_MODELS` setting: comma-separated ids, each optionally `id=Label` ("gpt-4.1-mini=Mini,gpt-4.1").
 * Empty or unset: the defaults. An invalid id is refused naming the setting.
 */
export function parseModelList(spec: string | undefined, setting: string, defaults: readonly LlmModelInfo[]): LlmModelInfo[] {
  if (spec === undefined || spec.trim() === "") return [...defaults];
  return spec
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const [id = "", label] = entry.split("=", 2).map((part) => part.trim());
      if (!isModelId(id)) throw new WeftError("INVALID_PROVIDER_CONFIG", `${setting} has an invalid model id "${id}".`);
      return { id, label: label || id };
    });
}
