/** What this editor knows about versions of its workflow. */
export interface VersionBook {
  /** The version the editor was drawn from. */
  base: number;
  /** Versions its own mutations produced (their payloads said so). */
  own: ReadonlySet<number>;
  /** Its mutations still waiting for an answer. */
  inFlight: number;
}

export interface RemoteChange {
  version: number;
  deleted: boolean;
}

/**
 * ignore: the editor already shows it (older, or its own edit). wait: a mutation of ours is under way
 * and may turn out to be this very version; decide again when it answers. reload: redraw from the
 * server. notice: someone else changed it but the settings form holds unsaved text; ask first.
 * deleted: the workflow is gone.
 */
export type RemoteChangeAction = "ignore" | "wait" | "reload" | "notice" | "deleted";

export function remoteChangeAction(book: VersionBook, change: RemoteChange, hasUnsavedEdits: boolean): RemoteChangeAction {
  if (change.deleted) return "deleted";
  if (change.version <= book.base || book.own.has(change.version)) return "ignore";
  if (book.inFlight > 0) return "wait";
  return hasUnsavedEdits ? "notice" : "reload";
}

/** The workflow version a mutation payload reports (`{ someMutation: { workflow: { version } } }`). */
export function payloadVersion(data: unknown): number | null {
  if (!data || typeof data !== "object") return null;
  for (const payload of Object.values(data)) {
    const version = (payload as { workflow?: { version?: unknown } | null } | null)?.workflow?.version;
    if (typeof version === "number") return version;
  }
  return null;
}
