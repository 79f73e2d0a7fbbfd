import type { LiveEvent } from "../../runs/live/run-projection";

export const TERMINAL_RUN_EVENTS: ReadonlySet<string> = new Set(["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"]);

/** A `runEvents` item as the subscription delivers it (payload is a JSON scalar). */
export function toLiveEvent(raw: unknown): LiveEvent {
  const record = (raw ?? {}) as Record<string, unknown>;
  const payload = record.payload && typeof record.payload === "object" ? (record.payload as Record<string, unknown>) : {};
  return {
    seq: typeof record.seq === "number" ? record.seq : -1,
    type: String(record.type ?? ""),
    at: String(record.at ?? ""),
    nodeId: typeof record.nodeId === "string" ? record.nodeId : null,
    payload,
  };
}
