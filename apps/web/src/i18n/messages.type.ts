/** A translation must provide every key of the English original, and nothing else. */
export type Messages<English extends Record<string, string>> = { readonly [K in keyof English]: string };
