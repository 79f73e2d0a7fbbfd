import type { Page } from "playwright-core";

/**
 * Words in Latin letters the page shows in its own voice: text outside what users and runs wrote (marked
 * translate="no", or code, pre, inputs, rendered outputs), outside identifiers (tokens with _ / . = : or
 * digits, camelCase, CAPITALS), outside the names of the data itself (`dataWords`: node ids, ports,
 * channels, workflow and knowledge-base names) and outside the names that stay as they are in Korean.
 */
const KEPT_IN_KOREAN = new Set(
  "Weft LLM JSON CEL API ID RAG Self-RAG Markdown Mistral Tavily Weaviate PGlite PostgreSQL pgvector Redis GraphQL WebSocket Bearer Ctrl Shift Alt Esc Escape Enter Space Delete Backspace Tab ms echo scripted offline flaky invalid-json CodeWeaver".split(" "),
);
export async function englishLeftOnPage(page: Page, dataWords: ReadonlySet<string>): Promise<string[]> {
  const text = await page.evaluate(() => {
    const skip = "code, pre, kbd, textarea, input, select, script, style, [translate='no'], .markdown, .json, .react-flow__attribution";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(skip) || parent.closest("[hidden]")) continue;
      parts.push(node.textContent ?? "");
    }
    return parts.join(" ");
  });
  const identifier = (token: string) => /[_/.=:{}()@<>\d]/.test(token) || /[a-z][A-Z]/.test(token) || /^[A-Z]{2,}$/.test(token);
  const words = text
    .split(/\s+/)
    .filter((token) => token && !identifier(token))
    .flatMap((token) => token.match(/[A-Za-z]+(?:-[A-Za-z]+)*/g) ?? []);
  return [...new Set(words.filter((word) => word.length > 1 && !KEPT_IN_KOREAN.has(word) && !dataWords.has(word.toLowerCase())))];
}
