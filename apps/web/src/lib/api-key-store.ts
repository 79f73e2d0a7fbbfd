/**
 * The API key this browser sends, kept in localStorage so it survives reloads. Listeners let the GraphQL
 * provider rebuild its client (and WebSocket) when the key changes.
 */
export const API_KEY_STORAGE_KEY = "weft.apiKey";

type Listener = (key: string | null) => void;
const listeners = new Set<Listener>();

export function readApiKey(): string | null {
  try {
    const value = window.localStorage.getItem(API_KEY_STORAGE_KEY);
    return value && value.trim() ? value.trim() : null;
  } catch {
    return null;
  }
}

export function writeApiKey(key: string | null): void {
  const value = key?.trim() || null;
  try {
    if (value) window.localStorage.setItem(API_KEY_STORAGE_KEY, value);
    else window.localStorage.removeItem(API_KEY_STORAGE_KEY);
  } catch {
    // storage disabled: the key still applies until the page is reloaded
  }
  for (const listener of listeners) listener(value);
}

export function subscribeApiKey(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
