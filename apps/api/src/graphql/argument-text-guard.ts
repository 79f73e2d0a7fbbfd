import {
  defaultFieldResolver,
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { AppError } from "../errors/app-error.js";
import { findUnstorableText, type UnstorableText } from "../modules/common/storable-text.js";
import { userError } from "../errors/user-error.type.js";

/**
 * Refuses, field by field, arguments holding text PostgreSQL cannot store (NUL, unpaired surrogates;
 * see storable-text.ts) before the resolver runs: in every argument of every field (ids, names,
 * contents, JSON values and their keys), so a new argument is covered without a line of its own.
 * A mutation answers with its payload carrying VALIDATION_FAILED and the argument's path (as data,
 * like every refused mutation); a query or subscription field fails alone with a VALIDATION_FAILED
 * error and `extensions.path`. Other fields of the same request, and other subscriptions on the same
 * socket, are untouched.
 */
export function refuseUnstorableArguments(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const refuse = refusal(field);
      field.resolve = guarded(field.resolve ?? defaultFieldResolver, refuse);
      if (field.subscribe) field.subscribe = guarded(field.subscribe, refuse);
    }
  }
}

type Resolver = GraphQLFieldResolver<unknown, unknown>;

function guarded(resolve: Resolver, refuse: (found: UnstorableText) => unknown): Resolver {
  return (source, args, context, info) => {
    const found = findUnstorableText(args);
    return found ? refuse(found) : resolve(source, args, context, info);
  };
}

/** A mutation payload (an object with `errors: [UserError!]!`) carries the refusal; anything else throws it. */
function refusal(field: GraphQLField<unknown, unknown>): (found: UnstorableText) => unknown {
  const payload = getNullableType(field.type);
  const empty = isObjectType(payload) && payload.getFields()["errors"] ? emptyPayload(payload) : null;
  return (found) => {
    if (empty) return { ...empty, errors: [userError("VALIDATION_FAILED", found.message, { path: found.path })] };
    throw new AppError("VALIDATION_FAILED", found.message, { extensions: { path: found.path } });
  };
}

/** Every other field of the payload empty: null, or [] for a required list; null when one cannot be. */
function emptyPayload(type: GraphQLObjectType): Record<string, unknown> | null {
  const values: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields())) {
    if (field.name === "errors") continue;
    if (!isNonNullType(field.type)) values[field.name] = null;
    else if (isListType(field.type.ofType)) values[field.name] = [];
    else return null;
  }
  return values;
}
