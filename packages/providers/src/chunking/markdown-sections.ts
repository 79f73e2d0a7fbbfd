/**
 * Splits a document into sections at Markdown ATX headings (`#` … `######`), ignoring `#` lines inside
 * fenced code blocks. Each section starts at its heading line, so a heading always travels with the text
 * under it, and records the path of headings above it. A heading with nothing under it before the next
 * heading is folded into the next section rather than becoming a chunk on its own.
 */

export interface TextSection {
  start: number;
  end: number;
  headingPath: string[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

interface Line {
  start: number;
  end: number;
  text: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ start, end, text: text.slice(start, end) });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

interface Heading {
  start: number;
  bodyStart: number;
  level: number;
  title: string;
}

function findHeadings(text: string): Heading[] {
  const headings: Heading[] = [];
  let fence: string | null = null;
  for (const line of splitLines(text)) {
    const fenceMatch = FENCE.exec(line.text);
    if (fenceMatch) {
      const marker = fenceMatch[1] as string;
      if (fence === null) fence = marker;
      else if (fence === marker) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = HEADING.exec(line.text);
    if (heading) {
      headings.push({ start: line.start, bodyStart: line.end, level: (heading[1] as string).length, title: heading[2] as string });
    }
  }
  return headings;
}

export function splitMarkdownSections(text: string): TextSection[] {
  const headings = findHeadings(text);
  const sections: TextSection[] = [];
  const first = headings[0];
  if (!first || first.start > 0) sections.push({ start: 0, end: first?.start ?? text.length, headingPath: [] });
  const stack: { level: number; title: string }[] = [];
  let pendingStart: number | null = null;
  headings.forEach((heading, i) => {
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= heading.level) stack.pop();
    stack.push({ level: heading.level, title: heading.title });
    const end = headings[i + 1]?.start ?? text.length;
    const start = pendingStart ?? heading.start;
    if (text.slice(heading.bodyStart, end).trim() === "" && i + 1 < headings.length) {
      pendingStart = start;
      return;
    }
    pendingStart = null;
    sections.push({ start, end, headingPath: stack.map((entry) => entry.title) });
  });
  return sections.filter((section) => text.slice(section.start, section.end).trim() !== "");
}

export function wholeTextSection(text: string): TextSection[] {
  return text.trim() === "" ? [] : [{ start: 0, end: text.length, headingPath: [] }];
}
