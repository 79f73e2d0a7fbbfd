import { conditionValues, isNumberRange, type ChunkFilter, type FieldCondition, type FilterScalar } from "@weft/engine";
import { Filters, type FilterValue } from "weaviate-client";
import { metadataPropertyName } from "./weaviate-schema.mapper.js";

/**
 * Turns the typed chunk filter into a Weaviate filter, with the semantics of `chunkMatchesFilter`.
 * Properties have one data type each, so values of another type are dropped before they reach the
 * server (which would reject them): a condition left with no value, or naming a property the
 * collection does not have, can match nothing, and the whole filter is then `null` (no search needed).
 */

export type PropertyType = "text" | "int" | "number" | "boolean";

/** The filter builder of one collection (`collection.filter`). */
export interface PropertyFilterBuilder {
  byProperty(name: string): {
    equal(value: never): FilterValue;
    greaterOrEqual(value: number): FilterValue;
    lessOrEqual(value: number): FilterValue;
  };
}

/** Source fields and the exact-match properties that hold them. */
const SOURCE_PROPERTIES = {
  documentId: "documentId",
  source: "sourceTitle",
  page: "page",
  chunkIndex: "chunkIndex",
} as const;

function fits(value: FilterScalar, type: PropertyType): boolean {
  if (type === "text") return typeof value === "string";
  if (type === "int") return Number.isInteger(value);
  if (type === "number") return typeof value === "number";
  return typeof value === "boolean";
}

function condition(builder: PropertyFilterBuilder, property: string, type: PropertyType | undefined, wanted: FieldCondition): FilterValue | null {
  if (type === undefined) return null;
  const on = builder.byProperty(property);
  if (isNumberRange(wanted)) {
    if (type !== "int" && type !== "number") return null;
    const parts: FilterValue[] = [];
    if (wanted.gte !== undefined) parts.push(on.greaterOrEqual(wanted.gte));
    if (wanted.lte !== undefined) parts.push(on.lessOrEqual(wanted.lte));
    return parts.length === 1 ? (parts[0] as FilterValue) : Filters.and(...parts);
  }
  const values = (conditionValues(wanted) ?? []).filter((value) => fits(value, type));
  if (values.length === 0) return null;
  const equals = values.map((value) => on.equal(value as never));
  return equals.length === 1 ? (equals[0] as FilterValue) : Filters.or(...equals);
}

/**
 * undefined = no condition at all; null = nothing can match; else the filter. `typeOf` gives a
 * property's data type in this collection, or undefined when it has no such property.
 */
export function buildWeaviateFilter(
  filter: ChunkFilter | undefined,
  builder: PropertyFilterBuilder,
  typeOf: (property: string) => PropertyType | undefined,
): FilterValue | undefined | null {
  const parts: FilterValue[] = [];
  for (const [field, property] of Object.entries(SOURCE_PROPERTIES)) {
    const wanted = filter?.[field as keyof typeof SOURCE_PROPERTIES];
    if (wanted === undefined) continue;
    const built = condition(builder, property, typeOf(property), wanted);
    if (built === null) return null;
    parts.push(built);
  }
  for (const [key, wanted] of Object.entries(filter?.metadata ?? {})) {
    const property = metadataPropertyName(key);
    const built = condition(builder, property, typeOf(property), wanted);
    if (built === null) return null;
    parts.push(built);
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : Filters.and(...parts);
}
