import { builtInRegistry, type checkEdit } from "@weft/engine";

/**
 * The node types the canvas checks edits with: every built-in type, as the API's own
 * registry (apps/api/src/app/node-registry.ts), so the canvas refuses exactly what the server refuses.
 */
export const EDIT_REGISTRY = builtInRegistry;

/** The graph and the settings the rules read (loops, state channels, limits). */
export type ValidatedGraph = Parameters<typeof checkEdit>[0];
