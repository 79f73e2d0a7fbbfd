import type { SavedScope } from "./scope-index-files.js";
import type { ScopeEntries } from "./scope-vector-index.js";

/** What a saved scope needs to match the table again. */
export interface ScopeDiff {
  /** Saved entries still live as saved: their keys, ids and created_at. */
  kept: { keys: number[]; ids: string[]; createdAt: number[] };
  /** Keys of saved entries gone from the table, expired, or stored again since (another vector). */
  removedKeys: number[];
  /** Live entries the saved graph lacks (new, or stored again): their vectors are to be read and added. */
  missing: string[];
}

/**
 * A saved scope against the table's live entries: an entry is kept only if the table has it with the
 * created_at it was saved with (storing an entry again gives it a new one), so whatever changed while no
 * process kept the graph in step — writes after the save, a crash before the next one, expiries — is
 * found here.
 */
export function diffSavedScope(saved: SavedScope, live: ScopeEntries): ScopeDiff {
  const liveAt = new Map<string, number>();
  live.ids.forEach((id, i) => liveAt.set(id, live.createdAt[i]!));
  const kept: ScopeDiff["kept"] = { keys: [], ids: [], createdAt: [] };
  const removedKeys: number[] = [];
  const keptIds = new Set<string>();
  saved.ids.forEach((id, i) => {
    const key = saved.keys[i]!;
    if (liveAt.get(id) === saved.createdAt[i] && !keptIds.has(id)) {
      kept.keys.push(key);
      kept.ids.push(id);
      kept.createdAt.push(saved.createdAt[i]!);
      keptIds.add(id);
    } else {
      removedKeys.push(key);
    }
  });
  return { kept, removedKeys, missing: live.ids.filter((id) => !keptIds.has(id)) };
}
