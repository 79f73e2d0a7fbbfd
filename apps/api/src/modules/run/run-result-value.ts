/**
 * A run's result as a value for answers that carry JSON (a SYNC webhook's `output`, an MCP tool's
 * `structuredContent`): the JSON it is when it is a JSON object or array (a structured output, a JSON
 * output node), else its text — so `"42"` or `"true"` said by a model stay text.
 */
export function runResultValue(result: string | null): unknown {
  if (result === null) return null;
  const start = result.trimStart()[0];
  if (start !== "{" && start !== "[") return result;
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return result;
  }
}
