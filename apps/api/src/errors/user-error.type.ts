import type { Violation } from "@weft/engine";
import { Field, InterfaceType, ObjectType } from "type-graphql";

/**
 * Codes a user error may carry: the engine's rule codes plus these. Clients switch on them, so a code
 * is never renamed.
 */
export const USER_ERROR_CODES = [
  "VALIDATION_FAILED",
  "NOT_FOUND",
  "DOCUMENT_INVALID",
  "LIMIT_EXCEEDED",
  "CONFLICT",
] as const;

/** A refusal caused by the request, returned as data in every mutation payload. */
@ObjectType({ description: "Why a mutation was refused. `code` is stable; `message` is for people." })
export class UserError {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  message!: string;

  @Field(() => [String], { description: "Workflow node ids involved, for highlighting." })
  nodeIds!: string[];

  @Field(() => [String], { description: "Workflow edge ids involved, for highlighting." })
  edgeIds!: string[];

  @Field(() => [String], { nullable: true, description: "Path of the offending input field, if any." })
  path?: string[] | null;
}

export interface UserErrorOptions {
  nodeIds?: string[];
  edgeIds?: string[];
  /** The offending input field; list indexes may be numbers (`["moves", 3, "x"]`). */
  path?: (string | number)[];
}

export function userError(code: string, message: string, options: UserErrorOptions = {}): UserError {
  const error = new UserError();
  error.code = code;
  error.message = message;
  error.nodeIds = options.nodeIds ?? [];
  error.edgeIds = options.edgeIds ?? [];
  error.path = options.path ? options.path.map(String) : null;
  return error;
}

/** A broken rule (the engine's Violation, or a RunViolation without a request path) as a user error. */
export function violationToUserError(violation: Pick<Violation, "message" | "nodeIds" | "edgeIds"> & { code: string }): UserError {
  return userError(violation.code, violation.message, { nodeIds: violation.nodeIds, edgeIds: violation.edgeIds });
}

export function notFoundError(what: string, id: string, path: string[] = ["id"]): UserError {
  return userError("NOT_FOUND", `${what} "${id}" does not exist`, { path });
}

/**
 * Every mutation payload implements this interface: result fields nullable, `errors` empty on success.
 * `@ObjectType({ implements: MutationPayload }) class XPayload extends MutationPayload { ... }`.
 */
@InterfaceType({ description: "A mutation's result: `errors` is empty on success." })
export abstract class MutationPayload {
  @Field(() => [UserError])
  errors: UserError[] = [];
}
