import { readFile } from "node:fs/promises";
import { EMPTY_PROVIDERS_FILE, openAiEndpoints, parseMcpServers, parseProvidersFile, type McpServerConfig, type OpenAiEndpoint, type ProvidersFile } from "@weft/providers";
import { EnvError, type Env } from "../env.js";

/**
 * The model endpoints this server offers, read once at start: the OPENAI_* settings and
 * WEFT_PROVIDERS_FILE (parsed and validated by @weft/providers; its `"mcp"` section is kept for the MCP
 * client). A file that cannot be read or is invalid stops the start with every problem named.
 */
export interface ProviderConfig {
  file: ProvidersFile;
  endpoints: readonly OpenAiEndpoint[];
  /** The `"mcp"` section's servers, checked (parseMcpServers). */
  mcpServers: ReadonlyMap<string, McpServerConfig>;
}

export async function loadProviderConfig(env: Env): Promise<ProviderConfig> {
  const file = await readProvidersFile(env.WEFT_PROVIDERS_FILE);
  const mcp = parseMcpServers(file.mcp);
  if (!mcp.ok) throw new EnvError(mcp.problems.map((problem) => `WEFT_PROVIDERS_FILE: ${problem}`));
  try {
    return { file, endpoints: openAiEndpoints(env, file), mcpServers: mcp.servers };
  } catch (error) {
    throw new EnvError([(error as Error).message]);
  }
}

async function readProvidersFile(path: string | undefined): Promise<ProvidersFile> {
  if (path === undefined) return EMPTY_PROVIDERS_FILE;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new EnvError([`WEFT_PROVIDERS_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  try {
    return parseProvidersFile(text, path);
  } catch (error) {
    throw new EnvError([(error as Error).message]);
  }
}
