import type { UserError } from "./user-error.type.js";

/** A service's answer: the value on success, or the user errors that stopped it (and changed nothing). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: UserError[] };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure<T = never>(...errors: UserError[]): Outcome<T> {
  return { ok: false, errors };
}
