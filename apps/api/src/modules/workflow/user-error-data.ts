import type { Violation } from "@weft/engine";
import { userError as makeUserError, violationToUserError, type UserError } from "../common/user-error.type.js";

/** Services return user errors as the GraphQL `UserError` objects; resolvers hand them over unchanged. */
export type UserErrorData = UserError;

/** A user error whose path may hold list indexes (`["moves", 3, "x"]`). */
export function userError(
  code: string,
  message: string,
  refs: { nodeIds?: string[]; edgeIds?: string[]; path?: (string | number)[] } = {},
): UserErrorData {
  const { path, ...ids } = refs;
  return makeUserError(code, message, { ...ids, ...(path ? { path: path.map(String) } : {}) });
}

export function violationError(violation: Violation): UserErrorData {
  return violationToUserError(violation);
}

export function notFound(what: string, id: string, path: string[] = ["id"]): UserErrorData {
  return userError("NOT_FOUND", `${what} "${id}" does not exist`, { path });
}

/** A service outcome: the value on success, or the user errors that stopped it (and changed nothing). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: UserErrorData[] };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure<T = never>(...errors: UserErrorData[]): Outcome<T> {
  return { ok: false, errors };
}
