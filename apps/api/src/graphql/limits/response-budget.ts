import {
  defaultFieldResolver,
  getNamedType,
  isIntrospectionType,
  isObjectType,
  isScalarType,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from "graphql";
import { AppError } from "../../errors/app-error.js";

export const RESPONSE_TOO_LARGE = "RESPONSE_TOO_LARGE";

/**
 * The bytes of text one query or mutation may return (WEFT_MAX_RESPONSE_BYTES). Text and JSON values
 * are charged as they resolve, so an oversized answer stops while it is being built, not after the
 * server has held all of it; the whole response is then replaced by one RESPONSE_TOO_LARGE error.
 * Other scalars (numbers, dates, enums) are bounded by the query cost and not counted.
 */
export class ResponseBudget {
  #used = 0;
  #exceeded = false;

  constructor(readonly maxBytes: number) {}

  get exceeded(): boolean {
    return this.#exceeded;
  }

  /** Throws once the budget is spent, so the fields still to come stop early. */
  check(): void {
    if (this.#exceeded) throw this.error();
  }

  charge(bytes: number): void {
    this.#used += bytes;
    if (this.#used > this.maxBytes) this.#exceeded = true;
    this.check();
  }

  error(): AppError {
    return new AppError(RESPONSE_TOO_LARGE, `the response would exceed ${this.maxBytes} bytes; ask for fewer items or fields`, {
      extensions: { maxResponseBytes: this.maxBytes },
    });
  }

  /** What clients receive instead of the partial data. */
  formattedError(requestId: string): GraphQLFormattedError {
    const { message, extensions } = this.error();
    return { message, extensions: { ...extensions, requestId } };
  }
}

const MEASURED_SCALARS = new Set(["String", "ID", "JSON", "JSONObject"]);

/**
 * Wraps the schema's resolvers once, at start: text and JSON fields charge the request's budget
 * (`context.responseBudget`; subscriptions have none, each event is bounded by what was stored), and
 * fields with their own resolver (database reads) do not start once it is spent. Introspection is held
 * to the same budget (see chargeIntrospection).
 */
export function chargeResponseBudget(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    if (isIntrospectionType(type)) {
      for (const field of Object.values(type.getFields())) chargeIntrospection(field);
      continue;
    }
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const measured = isScalarType(named) && MEASURED_SCALARS.has(named.name);
      if (!measured && !field.resolve) continue;
      field.resolve = guarded(field.resolve ?? defaultFieldResolver, measured ? (value) => sizeOf(value) : null);
    }
  }
  chargeIntrospection(SchemaMetaFieldDef);
  chargeIntrospection(TypeMetaFieldDef);
}

/** Introspection fields already wrapped: graphql-js's introspection types are one set shared by every schema of the process. */
const chargedIntrospection = new WeakSet<GraphQLField<unknown, unknown>>();

/**
 * Every introspection field charges the budget as it resolves — its text by bytes, each object, list and
 * enum too — so an answer that reads the schema many times over (1,000 aliases of `__schema`, or
 * `__type { fields { type { fields … } } }` fanning out level after level) stops at the budget like any
 * other, and the work done is never more than the answer allowed.
 */
function chargeIntrospection(field: GraphQLField<unknown, unknown>): void {
  if (chargedIntrospection.has(field)) return;
  chargedIntrospection.add(field);
  field.resolve = guarded(field.resolve ?? defaultFieldResolver, introspectionSizeOf) as GraphQLFieldResolver<unknown, unknown>;
}

type Resolver = GraphQLFieldResolver<unknown, { responseBudget?: ResponseBudget } | undefined>;

/** Bytes a resolved value adds to the answer; `key` is the name it is answered under (an alias or the field's name). */
type Measure = (value: unknown, key: string) => number;

function guarded(resolve: Resolver, size: Measure | null): Resolver {
  return (source, args, context, info) => {
    const budget = context?.responseBudget;
    if (!budget) return resolve(source, args, context, info);
    budget.check();
    const result: unknown = resolve(source, args, context, info);
    if (!size) return result;
    const key = String(info.path.key);
    if (result instanceof Promise) {
      return result.then((value: unknown) => {
        budget.charge(size(value, key));
        return value;
      });
    }
    budget.charge(size(result, key));
    return result;
  };
}

function sizeOf(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "string") return Buffer.byteLength(value, "utf8");
  if (Array.isArray(value)) return value.reduce((total: number, item: unknown) => total + sizeOf(item), 0);
  if (typeof value === "object") return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
  return String(value).length;
}

/**
 * About what an introspection value adds to the answer as JSON: its key, then text by bytes, the
 * brackets and commas of a list, a few bytes for anything else (objects are made of their own fields).
 */
function introspectionSizeOf(value: unknown, key: string): number {
  const keyBytes = key.length + 4;
  if (typeof value === "string") return keyBytes + Buffer.byteLength(value, "utf8") + 2;
  if (Array.isArray(value)) return keyBytes + 2 + value.length;
  return keyBytes + 4;
}
