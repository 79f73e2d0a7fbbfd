import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { PDFDocument, StandardFonts } from "pdf-lib";

/**
 * Documents made at test time (no binary fixtures in the repository): a PDF with a text layer (pdf-lib),
 * a "scanned" PDF (a page that is only an image), a DOCX (docx), an HTML page with navigation and
 * footer around its article.
 */

/** A PDF whose page n holds the lines of `pages[n - 1]`. */
export async function pdfWithText(pages: readonly string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, index) => page.drawText(line, { x: 50, y: 780 - index * 16, size: 11, font }));
  }
  return doc.save();
}

/** 1×1 grey PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=", "base64");

/** A PDF of pages that are only pictures, as a scanner makes them: no text layer. */
export async function scannedPdf(pageCount = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(PNG);
  for (let k = 0; k < pageCount; k += 1) doc.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return doc.save();
}

/** A DOCX with a title heading and paragraphs. */
export async function docxWith(title: string, paragraphs: readonly string[]): Promise<Uint8Array> {
  const doc = new Document({
    sections: [{ children: [new Paragraph({ text: title, heading: HeadingLevel.HEADING_1 }), ...paragraphs.map((text) => new Paragraph({ text }))] }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** An HTML page: navigation, an article with a heading and paragraphs, a footer. */
export function htmlPage(title: string, paragraphs: readonly string[]): string {
  return `<!DOCTYPE html><html><head><title>${title}</title><script>var tracking = 1;</script></head><body>
<nav><a href="/">Home</a> | <a href="/pricing">Pricing</a> | <a href="/login">Log in</a></nav>
<article><h1>${title}</h1>${paragraphs.map((text) => `<p>${text}</p>`).join("\n")}</article>
<footer>Copyright Example Corp. All rights reserved. Cookie settings.</footer></body></html>`;
}
