import {
  defaultFieldResolver,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { AppError } from "../errors/app-error.js";
import { findUnstorableText, unstorableTextAt, type UnstorableText } from "../modules/common/storable-text.js";
import { userError } from "../errors/user-error.type.js";

/**
 * Refuses, field by field, arguments holding text PostgreSQL cannot store (NUL, unpaired surrogates;
 * see storable-text.ts) or a JSON value nested deeper than WEFT_MAX_VALUE_DEPTH, before the resolver
 * runs: in every argument of every field (ids, names, contents, JSON values and their keys), so a new
 * argument is covered without a line of its own. A mutation answers with its payload carrying
 * VALIDATION_FAILED (or VALUE_TOO_DEEP) and the argument's path (as data, like every refused
 * mutation); a query or subscription field fails alone with that code and `extensions.path`. Other
 * fields of the same request, and other subscriptions on the same socket, are untouched.
 */
export function refuseUnstorableArguments(schema: GraphQLSchema, maxValueDepth: number): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const refuse = refusal(field);
      const check = (args: Record<string, unknown>) => findBadArgument(field.args, args, maxValueDepth);
      field.resolve = guarded(field.resolve ?? defaultFieldResolver, check, refuse);
      if (field.subscribe) field.subscribe = guarded(field.subscribe, check, refuse);
    }
  }
}

type Resolver = GraphQLFieldResolver<unknown, unknown>;

function guarded(resolve: Resolver, check: (args: Record<string, unknown>) => UnstorableText | null, refuse: (found: UnstorableText) => unknown): Resolver {
  return (source, args, context, info) => {
    const found = check(args);
    return found ? refuse(found) : resolve(source, args, context, info);
  };
}

/**
 * Walks the coerced arguments along their declared types with an explicit stack (input objects and
 * lists may nest as deeply as a client's variables make them): text is checked where the type says
 * String or ID, and a scalar holding an object or list (JSON, JSONObject) is one JSON value, whose
 * depth counts from its own top.
 */
export function findBadArgument(declared: readonly GraphQLArgument[], args: Record<string, unknown>, maxValueDepth: number): UnstorableText | null {
  const stack: { value: unknown; type: GraphQLInputType; path: string[] }[] = [];
  for (let index = declared.length - 1; index >= 0; index -= 1) {
    const arg = declared[index]!;
    stack.push({ value: args[arg.name], type: arg.type, path: [arg.name] });
  }
  while (stack.length > 0) {
    const { value, type, path } = stack.pop()!;
    if (value === null || value === undefined) continue;
    const nullable = getNullableType(type);
    if (isListType(nullable) && Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) stack.push({ value: value[index], type: nullable.ofType, path: [...path, String(index)] });
    } else if (isInputObjectType(nullable) && typeof value === "object") {
      const fields = Object.values(nullable.getFields());
      for (let index = fields.length - 1; index >= 0; index -= 1) {
        const field = fields[index]!;
        stack.push({ value: (value as Record<string, unknown>)[field.name], type: field.type, path: [...path, field.name] });
      }
    } else if (isScalarType(nullable)) {
      const found = typeof value === "string" ? unstorableTextAt(value, path) : findUnstorableText(value, path, maxValueDepth);
      if (found) return found;
    }
  }
  return null;
}

/** A mutation payload (an object with `errors: [UserError!]!`) carries the refusal; anything else throws it. */
function refusal(field: GraphQLField<unknown, unknown>): (found: UnstorableText) => unknown {
  const payload = getNullableType(field.type);
  const empty = isObjectType(payload) && payload.getFields()["errors"] ? emptyPayload(payload) : null;
  return (found) => {
    if (empty) return { ...empty, errors: [userError(found.code, found.message, { path: found.path })] };
    throw new AppError(found.code, found.message, { extensions: { path: found.path } });
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
