import type { JsonValue } from "./json-value.js";

/** One decision a person can take on a task; its id is the node's output port (SPEC-V3 §2). */
export interface HumanAction {
  id: string;
  label?: string;
}

/** What a `human` node asks for when it is reached: the task the host stores and shows. */
export interface HumanTaskRequest {
  title: string;
  /** Markdown. */
  instructions: string;
  actions: HumanAction[];
  /** JSON Schema (an object) of the data the person submits, or null. */
  form: JsonValue | null;
  /** The node's input value: what the person reviews, and with `editable` the form's starting data. */
  input: JsonValue;
  editable: boolean;
  assignee: string | null;
  /** After this long the task expires (the host decides when, see HumanTaskAnswer.expired). */
  timeoutSeconds: number | null;
  /** The action taken on expiry; null: the node fails with HUMAN_TIMEOUT. */
  onTimeout: string | null;
}

/**
 * How a task was closed, as the host recorded it. A completion names the action and who took it; an
 * expiry (the host's timer, `expired: true`) takes the node's `onTimeout` action, whatever `action`
 * says (none: the node fails with HUMAN_TIMEOUT).
 */
export interface HumanTaskAnswer {
  action: string | null;
  data: JsonValue;
  comment: string | null;
  /** The API key's name (or the command line's user); null for an expiry. */
  by: string | null;
  /** ISO-8601 time of the completion or expiry. */
  completedAt: string;
  expired: boolean;
}
