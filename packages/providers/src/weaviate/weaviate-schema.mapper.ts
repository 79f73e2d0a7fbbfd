import { createHash } from "node:crypto";
import type { StoredChunk } from "@weft/engine";

/**
 * How Weft's chunks live in Weaviate. Collection (class) names must match /^[A-Z][_0-9A-Za-z]*$/ and
 * are compared case-insensitively by Weaviate, so every knowledge-base collection maps to
 * `Weft_<sanitised>_<hash>` where the hash is of the exact original name: deterministic and collision-free.
 * Object ids must be UUIDs, so a chunk id becomes a name-based UUID and is also stored as `chunkId`.
 * Metadata keys become `m_<key>` properties declared on first use (tokenization "field", so string
 * filters are exact matches, as in every other store).
 */

const shortHash = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 10);

export function weaviateCollectionName(collection: string): string {
  const sanitised = collection.replace(/[^0-9A-Za-z]/g, "_").slice(0, 80);
  return `Weft_${sanitised}_${shortHash(collection)}`;
}

/** Semantic caches: one collection per embedding model and dimension. */
export function weaviateCacheCollectionName(model: string, dimension: number): string {
  const sanitised = model.replace(/[^0-9A-Za-z]/g, "_").slice(0, 60);
  return `WeftCache_${sanitised}_${dimension}_${shortHash(`${model}:${dimension}`)}`;
}

export function metadataPropertyName(key: string): string {
  const sanitised = key.replace(/[^0-9A-Za-z_]/g, "_").slice(0, 60);
  return sanitised === key ? `m_${key}` : `m_${sanitised}_${shortHash(key)}`;
}

/** A UUID (version 5 layout) derived from the chunk id, stable across runs. */
export function chunkUuid(chunkId: string): string {
  const bytes = createHash("sha1").update(`weft-chunk:${chunkId}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const DIMENSION_MARK = /weft:dimension=(\d+)/;

export function describeDimension(dimension: number): string {
  return `Weft knowledge-base chunks. weft:dimension=${dimension}`;
}

export function dimensionFromDescription(description: string | undefined): number | undefined {
  const match = DIMENSION_MARK.exec(description ?? "");
  return match ? Number(match[1]) : undefined;
}

export type WeaviateScalarType = "text" | "number" | "boolean";

export function scalarType(value: string | number | boolean): WeaviateScalarType {
  return typeof value === "string" ? "text" : typeof value === "number" ? "number" : "boolean";
}

export type ChunkProperties = Record<string, string | number | boolean | null>;

export function toProperties(chunk: StoredChunk): ChunkProperties {
  const properties: ChunkProperties = {
    chunkId: chunk.id,
    text: chunk.text,
    documentId: chunk.source.documentId,
    title: chunk.source.title,
    sourceTitle: chunk.source.title,
    chunkIndex: chunk.source.chunkIndex,
    metadataJson: JSON.stringify(chunk.metadata ?? {}),
  };
  if (chunk.source.page !== undefined && chunk.source.page !== null) properties.page = chunk.source.page;
  for (const [key, value] of Object.entries(chunk.metadata ?? {})) properties[metadataPropertyName(key)] = value;
  return properties;
}

export const SOURCE_TITLE_PROPERTY = { name: "sourceTitle", dataType: "text", tokenization: "field", indexSearchable: false } as const;

export const CORE_PROPERTIES = [
  { name: "chunkId", dataType: "text", tokenization: "field", indexSearchable: false },
  { name: "text", dataType: "text", tokenization: "word" },
  { name: "documentId", dataType: "text", tokenization: "field", indexSearchable: false },
  { name: "title", dataType: "text", tokenization: "word" },
  // The title again, matched exactly: `title` is tokenized into words for keyword search.
  SOURCE_TITLE_PROPERTY,
  { name: "chunkIndex", dataType: "int" },
  { name: "page", dataType: "int" },
  { name: "metadataJson", dataType: "text", indexFilterable: false, indexSearchable: false },
] as const;
