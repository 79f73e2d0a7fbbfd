/**
 * Cuts a span of text into the smallest pieces the chunker may pack: sentences (and lines), grouped by
 * paragraph. Only a sentence longer than the chunk size is cut further, at spaces, and only a single
 * "word" longer than the chunk size is cut mid-word. Each unit remembers how strong the boundary in
 * front of it is, so the packer can prefer ending a chunk at a paragraph over a sentence over a word.
 */

export type Boundary = "paragraph" | "sentence" | "word" | "hard";

export const BOUNDARY_STRENGTH: Record<Boundary, number> = { paragraph: 3, sentence: 2, word: 1, hard: 0 };

export interface TextUnit {
  start: number;
  end: number;
  /** The boundary between the previous unit and this one. */
  before: Boundary;
}

interface Span {
  start: number;
  end: number;
}

const FENCE = /^ {0,3}(```|~~~)/;
/**
 * A sentence ends at a run of terminators (., !, ?, …, and the fullwidth 。！？ used in CJK text), with
 * closing quotes or brackets, followed by whitespace; or at a line break. Korean declaratives end
 * "…다." / "…요." and fall under the same rule. "3.14" or "e.g.x" are not cut: no whitespace follows.
 */
const SENTENCE_END = /[.!?…。！？]+["'”’)\]」』]*(?=\s)|[。！？](?=\S)|\n/gu;

function trimSpan(text: string, span: Span): Span | null {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return start < end ? { start, end } : null;
}

/** Paragraphs are separated by blank lines; a fenced code block is one paragraph whatever it contains. */
function paragraphs(text: string, range: Span): Span[] {
  const spans: Span[] = [];
  let paragraphStart = range.start;
  let inFence = false;
  let lineStart = range.start;
  while (lineStart < range.end) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 || newline > range.end ? range.end : newline;
    const line = text.slice(lineStart, lineEnd);
    if (FENCE.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === "") {
      spans.push({ start: paragraphStart, end: lineStart });
      paragraphStart = lineEnd;
    }
    lineStart = lineEnd + 1;
  }
  spans.push({ start: paragraphStart, end: range.end });
  return spans.map((span) => trimSpan(text, span)).filter((span): span is Span => span !== null);
}

function sentences(text: string, paragraph: Span): Span[] {
  const body = text.slice(paragraph.start, paragraph.end);
  if (FENCE.test(body)) return lines(text, paragraph);
  const spans: Span[] = [];
  let start = 0;
  for (const match of body.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    spans.push({ start: paragraph.start + start, end: paragraph.start + end });
    start = end;
  }
  spans.push({ start: paragraph.start + start, end: paragraph.end });
  return spans.map((span) => trimSpan(text, span)).filter((span): span is Span => span !== null);
}

function lines(text: string, paragraph: Span): Span[] {
  const spans: Span[] = [];
  let start = paragraph.start;
  for (;;) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 || newline >= paragraph.end ? paragraph.end : newline;
    spans.push({ start, end });
    if (end >= paragraph.end) break;
    start = end + 1;
  }
  return spans.map((span) => trimSpan(text, span)).filter((span): span is Span => span !== null);
}

function words(text: string, sentence: Span, size: number): TextUnit[] {
  const units: TextUnit[] = [];
  const pattern = /\S+/g;
  pattern.lastIndex = sentence.start;
  for (let match = pattern.exec(text); match && match.index < sentence.end; match = pattern.exec(text)) {
    const end = Math.min(match.index + match[0].length, sentence.end);
    for (let start = match.index; start < end; start += size) {
      units.push({ start, end: Math.min(start + size, end), before: start === match.index ? "word" : "hard" });
    }
  }
  return units;
}

export function segmentUnits(text: string, range: Span, size: number): TextUnit[] {
  const units: TextUnit[] = [];
  for (const paragraph of paragraphs(text, range)) {
    sentences(text, paragraph).forEach((sentence, i) => {
      const before: Boundary = i === 0 ? "paragraph" : "sentence";
      if (sentence.end - sentence.start <= size) {
        units.push({ ...sentence, before });
        return;
      }
      words(text, sentence, size).forEach((unit, j) => units.push(j === 0 ? { ...unit, before } : unit));
    });
  }
  return units;
}
