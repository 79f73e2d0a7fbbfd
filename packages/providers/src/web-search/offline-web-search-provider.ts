import { hostAllowedByDomains, type Embedder, type WebSearchProvider, type WebSearchRequest, type WebSearchResponse, type WebSearchResult } from "@weft/engine";
import { LocalEmbedder } from "../embedding/local-embedder.js";
import { DEVELOPER_PAGES } from "./offline-web-corpus.dev.js";
import { ENGLISH_PAGES } from "./offline-web-corpus.en.js";
import { KOREAN_PAGES } from "./offline-web-corpus.ko.js";
import type { OfflineWebPage } from "./offline-web-page.js";
import { checkWebSearchRequest } from "./web-search-request.js";

/** The corpus Weft ships: a few dozen short pages in English and Korean. */
export const OFFLINE_WEB_CORPUS: readonly OfflineWebPage[] = [...ENGLISH_PAGES, ...KOREAN_PAGES, ...DEVELOPER_PAGES];

export interface OfflineWebSearchOptions {
  pages?: readonly OfflineWebPage[];
  /** Scores paragraphs against the query; any embedder works, the default is the local one (no network). */
  embedder?: Pick<Embedder, "embed">;
  /**
   * Pages whose best paragraph scores below this are not results (default 0.2): between unrelated short
   * texts the local embedder's hashed features still give chance similarities up to about 0.16.
   */
  minScore?: number;
}

interface IndexedParagraph {
  page: number;
  position: number;
  text: string;
  vector: number[];
}

/** Paragraphs of one page kept for `advanced` depth: those scoring at least this share of the page's best. */
const ADVANCED_SHARE = 0.5;
const ADVANCED_MAX_PARAGRAPHS = 3;

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/**
 * Web search without a network: scores a fixed corpus (by default the one Weft ships) with an
 * embedder, paragraph by paragraph. A page's score is the cosine similarity of its best paragraph to
 * the query (title included), clamped to [0, 1]. `basic` returns that paragraph as the content,
 * `advanced` the page's well-matching paragraphs (up to three, in page order). The local embedder
 * measures shared words and character n-grams, so queries find pages in their own language.
 */
export class OfflineWebSearchProvider implements WebSearchProvider {
  readonly id = "offline";
  readonly label = "Offline fixture corpus";
  private readonly pages: readonly OfflineWebPage[];
  private readonly embedder: Pick<Embedder, "embed">;
  private readonly minScore: number;
  private index: Promise<IndexedParagraph[]> | undefined;

  constructor(options: OfflineWebSearchOptions = {}) {
    this.pages = options.pages ?? OFFLINE_WEB_CORPUS;
    this.embedder = options.embedder ?? new LocalEmbedder();
    this.minScore = options.minScore ?? 0.2;
  }

  async search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchResponse> {
    checkWebSearchRequest(this.id, request);
    signal.throwIfAborted();
    const paragraphs = await this.paragraphs();
    const [raw] = await this.embedder.embed([request.query], signal);
    if (!raw) throw new Error("the embedder returned no vector for the query");
    const query = normalise(raw);
    const byPage = new Map<number, { paragraph: IndexedParagraph; score: number }[]>();
    for (const paragraph of paragraphs) {
      const scored = byPage.get(paragraph.page) ?? [];
      scored.push({ paragraph, score: Math.max(0, Math.min(1, dot(query, paragraph.vector))) });
      byPage.set(paragraph.page, scored);
    }
    const results: WebSearchResult[] = [];
    for (const [pageIndex, scored] of byPage) {
      const page = this.pages[pageIndex] as OfflineWebPage;
      const best = Math.max(...scored.map((entry) => entry.score));
      if (best < this.minScore || !hostAllowedByDomains(new URL(page.url).hostname, request)) continue;
      results.push({ title: page.title, url: page.url, content: this.content(scored, best, request.depth), score: best });
    }
    results.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url));
    return { provider: this.id, results: results.slice(0, request.maxResults) };
  }

  private content(scored: { paragraph: IndexedParagraph; score: number }[], best: number, depth: WebSearchRequest["depth"]): string {
    const ranked = [...scored].sort((a, b) => b.score - a.score);
    if (depth === "basic") return ranked[0]?.paragraph.text ?? "";
    return ranked
      .filter((entry) => entry.score >= best * ADVANCED_SHARE)
      .slice(0, ADVANCED_MAX_PARAGRAPHS)
      .sort((a, b) => a.paragraph.position - b.paragraph.position)
      .map((entry) => entry.paragraph.text)
      .join("\n\n");
  }

  /** Embeds the corpus once, on first use. The vectors are unit length, so a dot product is the cosine. */
  private paragraphs(): Promise<IndexedParagraph[]> {
    this.index ??= (async () => {
      const flat = this.pages.flatMap((page, pageIndex) => page.paragraphs.map((text, position) => ({ page: pageIndex, position, text, title: page.title })));
      const vectors = await this.embedder.embed(flat.map((entry) => `${entry.title}\n${entry.text}`));
      return flat.map((entry, i) => ({ page: entry.page, position: entry.position, text: entry.text, vector: normalise(vectors[i] ?? []) }));
    })();
    this.index.catch(() => (this.index = undefined));
    return this.index;
  }
}

function normalise(vector: readonly number[]): number[] {
  const norm = Math.sqrt(dot(vector, vector));
  return norm === 0 ? [...vector] : vector.map((value) => value / norm);
}
