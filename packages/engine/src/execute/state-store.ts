import { WeftError } from "../model/errors.js";
import { isJsonObject, type JsonValue } from "../model/json-value.js";
import type { StateChannel } from "../model/workflow.js";

/**
 * Where a write stands in the run's deterministic order: the writing invocation's place in the graph
 * (loop header rank and iteration for each enclosing loop, then the node's rank and index; a map item's
 * index between a map node and its body's key), compared element by element. Keys depend only on the
 * graph and the iteration and item numbers, never on timing.
 */
export type OrderKey = readonly number[];

export function compareKeys(a: OrderKey, b: OrderKey): number {
  const length = Math.min(a.length, b.length);
  for (let k = 0; k < length; k += 1) if (a[k] !== b[k]) return a[k]! - b[k]!;
  return a.length - b.length;
}

interface ChannelState {
  spec: StateChannel;
  initial: JsonValue;
  writes: Array<{ key: OrderKey; value: JsonValue }>;
  value: JsonValue;
}

/**
 * The run's state channels (SPEC-V2 §4). A write merges into its channel by the channel's reducer, in
 * the order of the writes' keys: a write that comes last in that order (the usual case) is applied at
 * once; one that belongs earlier makes the channel be folded again from its initial value. So the final
 * value never depends on which of two concurrent writers finished first. Readers get a snapshot.
 */
export class StateStore {
  readonly #channels = new Map<string, ChannelState>();
  #snapshot: Readonly<Record<string, JsonValue>> | null = null;

  constructor(channels: Readonly<Record<string, StateChannel>>, initial: Readonly<Record<string, JsonValue>> = {}) {
    for (const [name, spec] of Object.entries(channels)) {
      const start = Object.hasOwn(initial, name) ? initial[name]! : emptyValue(spec);
      this.#channels.set(name, { spec, initial: start, writes: [], value: start });
    }
  }

  get declared(): boolean {
    return this.#channels.size > 0;
  }

  /** Applies a write; throws STATE_WRITE_INVALID when the value does not suit the reducer. */
  write(name: string, key: OrderKey, value: JsonValue): void {
    const channel = this.#channels.get(name);
    if (!channel) throw new WeftError("STATE_UNKNOWN_CHANNEL", `state channel "${name}" is not declared`);
    checkValue(name, channel.spec, value);
    const writes = channel.writes;
    let at = writes.length;
    while (at > 0 && compareKeys(writes[at - 1]!.key, key) > 0) at -= 1;
    writes.splice(at, 0, { key, value });
    channel.value = at === writes.length - 1 ? reduce(channel.spec, channel.value, value) : writes.reduce((current, write) => reduce(channel.spec, current, write.value), channel.initial);
    this.#snapshot = null;
  }

  snapshot(): Readonly<Record<string, JsonValue>> {
    if (!this.#snapshot) {
      const values: Record<string, JsonValue> = {};
      for (const [name, channel] of this.#channels) values[name] = channel.value;
      this.#snapshot = Object.freeze(values);
    }
    return this.#snapshot;
  }
}

function emptyValue(spec: StateChannel): JsonValue {
  if (spec.reducer === "merge") return {};
  if (spec.reducer === "replace") return null;
  return [];
}

function checkValue(name: string, spec: StateChannel, value: JsonValue): void {
  if (spec.reducer === "merge" && !isJsonObject(value)) {
    throw new WeftError("STATE_WRITE_INVALID", `state channel "${name}" merges objects; the node's output is not an object`);
  }
}

/** replace: the write; append: lists concatenate, other values are added as one item; appendUnique: the same, skipping items already there (by `key`); merge: shallow. */
function reduce(spec: StateChannel, current: JsonValue, value: JsonValue): JsonValue {
  switch (spec.reducer) {
    case "replace":
      return value;
    case "merge":
      return { ...(current as Record<string, JsonValue>), ...(value as Record<string, JsonValue>) };
    case "append":
      return [...(current as JsonValue[]), ...(Array.isArray(value) ? value : [value])];
    case "appendUnique": {
      const list = [...(current as JsonValue[])];
      const seen = new Set(list.map((item) => identity(item, spec.key)));
      for (const item of Array.isArray(value) ? value : [value]) {
        const id = identity(item, spec.key);
        if (seen.has(id)) continue;
        seen.add(id);
        list.push(item);
      }
      return list;
    }
  }
}

function identity(item: JsonValue, key: string | undefined): string {
  if (key !== undefined && isJsonObject(item) && Object.hasOwn(item, key)) return JSON.stringify(item[key]);
  return JSON.stringify(item);
}
