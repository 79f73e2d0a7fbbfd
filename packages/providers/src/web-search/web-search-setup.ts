import type { WebSearchProvider, WebSearchProviders } from "@weft/engine";
import { OfflineWebSearchProvider } from "./offline-web-search-provider.js";
import { TavilyWebSearchProvider } from "./tavily-web-search-provider.js";

export interface WebSearchSettings {
  /** Enables the `tavily` provider. */
  tavilyApiKey?: string | undefined;
  tavilyServerURL?: string | undefined;
  tavilyTimeoutMs?: number | undefined;
}

/** The web search providers a deployment offers: `offline` always, `tavily` with an API key. */
export function configureWebSearch(settings: WebSearchSettings = {}): WebSearchProviders {
  const providers: WebSearchProvider[] = [new OfflineWebSearchProvider()];
  if (settings.tavilyApiKey) {
    providers.push(
      new TavilyWebSearchProvider({
        apiKey: settings.tavilyApiKey,
        ...(settings.tavilyServerURL ? { serverURL: settings.tavilyServerURL } : {}),
        ...(settings.tavilyTimeoutMs ? { timeoutMs: settings.tavilyTimeoutMs } : {}),
      }),
    );
  }
  return new Map(providers.map((provider) => [provider.id, provider]));
}
