/**
 * Lets one build of the UI talk to an API at any address, chosen at run time: opening the UI with
 * `?api=http://host:port/graphql` remembers that endpoint in this browser (the end-to-end suite and
 * `weft up` on a non-default port use it). `NEXT_PUBLIC_*` variables, by contrast, are fixed at build.
 */
export const API_URL_STORAGE_KEY = "weft.apiUrl";
export const API_URL_PARAM = "api";

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The endpoint from the page's `?api=` parameter (then remembered), else the remembered one. */
export function readApiUrlOverride(location: { search: string }, storage: Storage | null): string | undefined {
  const fromQuery = new URLSearchParams(location.search).get(API_URL_PARAM)?.trim();
  try {
    if (fromQuery && isHttpUrl(fromQuery)) {
      storage?.setItem(API_URL_STORAGE_KEY, fromQuery);
      return fromQuery;
    }
    const stored = storage?.getItem(API_URL_STORAGE_KEY)?.trim();
    return stored && isHttpUrl(stored) ? stored : undefined;
  } catch {
    return fromQuery && isHttpUrl(fromQuery) ? fromQuery : undefined;
  }
}

/** Forgets the remembered endpoint; the next page load uses the configured or derived default. */
export function clearApiUrlOverride(storage: Storage | null): void {
  try {
    storage?.removeItem(API_URL_STORAGE_KEY);
  } catch {
    // storage disabled: nothing was remembered
  }
}

export function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
