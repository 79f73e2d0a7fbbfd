/** Reads a node run's retrieved context (JSON) into chunks with score and source; skips what it can't read. */
export interface ScoredChunkView {
  id: string;
  text: string;
  score: number | null;
  title: string | null;
  chunkIndex: number | null;
  page: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

export function readScoredChunks(context: unknown): ScoredChunkView[] {
  if (!Array.isArray(context)) return [];
  return context.flatMap((raw, i): ScoredChunkView[] => {
    if (!isRecord(raw) || typeof raw.text !== "string") return [];
    const source = isRecord(raw.source) ? raw.source : {};
    return [
      {
        id: typeof raw.id === "string" ? raw.id : `chunk-${i}`,
        text: raw.text,
        score: typeof raw.score === "number" ? raw.score : null,
        title: typeof source.title === "string" ? source.title : null,
        chunkIndex: typeof source.chunkIndex === "number" ? source.chunkIndex : null,
        page: typeof source.page === "number" ? source.page : null,
      },
    ];
  });
}

export const formatScore = (score: number | null): string => (score === null ? "?" : score.toFixed(3));
