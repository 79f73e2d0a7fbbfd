import type { Violation } from "@weft/engine";
import { Field, ID, Int, InterfaceType, ObjectType } from "type-graphql";

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
  "THREAD_BUSY",
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

  @Field(() => String, {
    nullable: true,
    description:
      "The field of a node or of the workflow the problem is about, as a weft.workflow document writes it: `cases[1].when`, `loops[0].max`, `writes`, `limits.maxInvocations`.",
  })
  field?: string | null;

  @Field(() => Int, { nullable: true, description: "EXPRESSION_INVALID: the 0-based character offset of the error in the CEL expression." })
  position?: number | null;

  @Field(() => [String], {
    nullable: true,
    description:
      "Inside a map or subgraph body: the ids of the enclosing body nodes, outermost first (`[\"perQuestion\"]`); nodeIds and edgeIds are then the body's own. Null at top level.",
  })
  bodyPath?: string[] | null;

  @Field(() => [ID], {
    nullable: true,
    description:
      "PUBLISH_GATE_FAILED: the experiments the refusal is about — the draft's first, then, for regressed rows, the latest published version's (compareExperiments of the two shows them). Null otherwise.",
  })
  experimentIds?: string[] | null;
}

export interface UserErrorOptions {
  nodeIds?: string[];
  edgeIds?: string[];
  /** The offending input field; list indexes may be numbers (`["moves", 3, "x"]`). */
  path?: (string | number)[];
  /** The node or workflow field at fault, as a document writes it (`cases[1].when`). */
  field?: string;
  position?: number;
  /** Ids of the map or subgraph nodes whose body the problem is in, outermost first. */
  bodyPath?: string[];
  /** PUBLISH_GATE_FAILED: the draft's experiment, then the baseline's. */
  experimentIds?: string[];
}

export function userError(code: string, message: string, options: UserErrorOptions = {}): UserError {
  const error = new UserError();
  error.code = code;
  error.message = message;
  error.nodeIds = options.nodeIds ?? [];
  error.edgeIds = options.edgeIds ?? [];
  error.path = options.path ? options.path.map(String) : null;
  error.field = options.field ?? null;
  error.position = options.position ?? null;
  error.bodyPath = options.bodyPath && options.bodyPath.length > 0 ? options.bodyPath : null;
  error.experimentIds = options.experimentIds ?? null;
  return error;
}

/**
 * A broken rule (the engine's Violation, or a RunViolation without a request path) as a user error: the
 * engine's body path becomes `bodyPath` (`path` stays the path of an input field).
 */
export function violationToUserError(
  violation: Pick<Violation, "message" | "nodeIds" | "edgeIds" | "path" | "field" | "position"> & { code: string },
): UserError {
  return userError(violation.code, violation.message, {
    nodeIds: violation.nodeIds,
    edgeIds: violation.edgeIds,
    ...(violation.path ? { bodyPath: violation.path } : {}),
    ...(violation.field !== undefined ? { field: violation.field } : {}),
    ...(violation.position !== undefined ? { position: violation.position } : {}),
  });
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
