import { AppError } from "./app-error.js";
import type { UserError } from "./user-error.type.js";

/** A service's answer: the value on success, or the user errors that stopped it (and changed nothing). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: UserError[] };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure<T = never>(...errors: UserError[]): Outcome<T> {
  return { ok: false, errors };
}

/** Query arguments that name nothing, or a bad page, are GraphQL errors with the user error's code. */
export function valueOrThrow<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const first = outcome.errors[0];
  throw new AppError(first?.code ?? "VALIDATION_FAILED", first?.message ?? "invalid arguments", { extensions: { path: first?.path } });
}
