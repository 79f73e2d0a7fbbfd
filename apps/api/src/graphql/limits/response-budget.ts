import {
  defaultFieldResolver,
  getNamedType,
  isObjectType,
  isScalarType,
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

  charge(value: unknown): void {
    this.#used += sizeOf(value);
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
 * fields with their own resolver (database reads) do not start once it is spent.
 */
export function chargeResponseBudget(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const measured = isScalarType(named) && MEASURED_SCALARS.has(named.name);
      if (!measured && !field.resolve) continue;
      field.resolve = guarded(field.resolve ?? defaultFieldResolver, measured);
    }
  }
}

type Resolver = GraphQLFieldResolver<unknown, { responseBudget?: ResponseBudget } | undefined>;

function guarded(resolve: Resolver, measured: boolean): Resolver {
  return (source, args, context, info) => {
    const budget = context?.responseBudget;
    if (!budget) return resolve(source, args, context, info);
    budget.check();
    const result: unknown = resolve(source, args, context, info);
    if (!measured) return result;
    if (result instanceof Promise) {
      return result.then((value: unknown) => {
        budget.charge(value);
        return value;
      });
    }
    budget.charge(result);
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
