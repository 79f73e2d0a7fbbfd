import { WeftError } from "@weft/engine";
import { splitMarkdownSections, wholeTextSection, type TextSection } from "./markdown-sections.js";
import { BOUNDARY_STRENGTH, segmentUnits, type TextUnit } from "./text-units.js";

export interface ChunkingOptions {
  /** Upper bound on a chunk's length in characters (UTF-16 code units). */
  size: number;
  /** Characters of the previous chunk repeated at the start of the next, in whole sentences. */
  overlap: number;
  /** Split at Markdown headings and record a heading path on each chunk. */
  markdown: boolean;
}

export interface TextChunk {
  index: number;
  text: string;
  /** Offsets into the original text: `text === source.slice(start, end)`. */
  start: number;
  end: number;
  /** Markdown headings above the chunk, outermost first; empty for plain text. */
  headingPath: string[];
}

export const DEFAULT_CHUNK_SIZE = 800;
export const DEFAULT_CHUNK_OVERLAP = 120;
export const MIN_CHUNK_SIZE = 50;
export const MAX_CHUNK_SIZE = 20_000;

export function resolveChunkingOptions(options: Partial<ChunkingOptions> = {}): ChunkingOptions {
  const size = options.size ?? DEFAULT_CHUNK_SIZE;
  const overlap = options.overlap ?? Math.min(DEFAULT_CHUNK_OVERLAP, Math.floor(size / 4));
  if (!Number.isInteger(size) || size < MIN_CHUNK_SIZE || size > MAX_CHUNK_SIZE) {
    throw new WeftError("INVALID_CHUNKING_OPTIONS", `Chunk size must be an integer from ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE} characters, got ${size}.`);
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > size / 2) {
    throw new WeftError("INVALID_CHUNKING_OPTIONS", `Chunk overlap must be an integer from 0 to half the chunk size (${Math.floor(size / 2)}), got ${overlap}.`);
  }
  return { size, overlap, markdown: options.markdown ?? false };
}

/**
 * Where to end a chunk that starts at unit `first` when units up to `limit` (exclusive) fit. Prefers the
 * strongest boundary (paragraph > sentence > word) that still leaves the chunk at least half full, so
 * chunks end at paragraph breaks when they can without becoming tiny.
 */
function chooseCut(units: readonly TextUnit[], first: number, limit: number, size: number): number {
  if (limit >= units.length) return units.length;
  const start = (units[first] as TextUnit).start;
  let best = limit;
  let bestStrength = BOUNDARY_STRENGTH[(units[limit] as TextUnit).before];
  for (let cut = limit - 1; cut > first; cut--) {
    if ((units[cut - 1] as TextUnit).end - start < size / 2) break;
    const strength = BOUNDARY_STRENGTH[(units[cut] as TextUnit).before];
    if (strength > bestStrength) {
      best = cut;
      bestStrength = strength;
    }
  }
  return best;
}

/** First unit of the next chunk: trailing whole units of this chunk that fit in the overlap. */
function overlapStart(units: readonly TextUnit[], first: number, cut: number, options: ChunkingOptions): number {
  if (cut >= units.length) return cut;
  const end = (units[cut - 1] as TextUnit).end;
  const nextEnd = (units[cut] as TextUnit).end;
  let next = cut;
  while (next - 1 > first) {
    const candidate = (units[next - 1] as TextUnit).start;
    if (end - candidate > options.overlap || nextEnd - candidate > options.size) break;
    next--;
  }
  return next;
}

function chunkSection(text: string, section: TextSection, options: ChunkingOptions): Omit<TextChunk, "index">[] {
  const units = segmentUnits(text, section, options.size);
  const chunks: Omit<TextChunk, "index">[] = [];
  let first = 0;
  while (first < units.length) {
    const start = (units[first] as TextUnit).start;
    let limit = first + 1;
    while (limit < units.length && (units[limit] as TextUnit).end - start <= options.size) limit++;
    const cut = chooseCut(units, first, limit, options.size);
    const end = (units[cut - 1] as TextUnit).end;
    chunks.push({ text: text.slice(start, end), start, end, headingPath: section.headingPath });
    first = overlapStart(units, first, cut, options);
  }
  return chunks;
}

/** Splits a document into chunks of at most `size` characters; see docs/knowledge-bases.md. */
export function chunkText(text: string, options: Partial<ChunkingOptions> = {}): TextChunk[] {
  const resolved = resolveChunkingOptions(options);
  const sections = resolved.markdown ? splitMarkdownSections(text) : wholeTextSection(text);
  return sections
    .flatMap((section) => chunkSection(text, section, resolved))
    .map((chunk, index) => ({ index, ...chunk }));
}
