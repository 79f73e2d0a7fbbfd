import { describe, expect, it } from "vitest";
import { contentHash, prepareDocument, type RawDocument } from "./document-content.js";

async function codeOf(raw: RawDocument): Promise<string> {
  try {
    await prepareDocument(raw);
    return "OK";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64");

describe("prepareDocument", () => {
  it("refuses each kind of bad document with its own code", async () => {
    expect(await codeOf({ title: "empty.txt", content: "  \n " })).toBe("EMPTY_DOCUMENT");
    expect(await codeOf({ title: "bytes.bin", content: base64(Buffer.from([0xff, 0xfe, 0x00])), encoding: "BASE64" })).toBe("DOCUMENT_TYPE_UNSUPPORTED");
    expect(await codeOf({ title: "not-base64.txt", content: "%%%", encoding: "BASE64" })).toBe("INVALID_DOCUMENT_ENCODING");
    expect(await codeOf({ title: "  ", content: "text" })).toBe("INVALID_DOCUMENT");
    expect(await codeOf({ title: "huge.txt", content: "x".repeat(2_000_001) })).toBe("DOCUMENT_TOO_LARGE");
  });

  it("refuses a base64 file holding a NUL byte: valid UTF-8, but binary", async () => {
    expect(await codeOf({ title: "nul.txt", content: base64("a\u0000b"), encoding: "BASE64" })).toBe("DOCUMENT_TYPE_UNSUPPORTED");
  });

  it("reads the kind from the content: text sent as a PDF is text, a PDF named .txt is kept for extraction", async () => {
    expect(await prepareDocument({ title: "slides.pdf", content: "just words", mimeType: "application/pdf" })).toMatchObject({ mimeType: "text/plain", content: "just words" });
    const pdf = Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n");
    const prepared = await prepareDocument({ title: "notes.txt", content: base64(pdf), encoding: "BASE64", mimeType: "text/plain" });
    expect(prepared).toMatchObject({ mimeType: "application/pdf", content: "" });
    expect(Buffer.from(prepared.source!)).toEqual(pdf);
  });

  it("decodes UTF-8 files, drops the byte-order mark, unifies line endings and guesses Markdown from the title", async () => {
    const document = await prepareDocument({ title: " file.md ", content: base64("\uFEFF# 제목\r\n\r\n본문입니다."), encoding: "BASE64" });
    expect(document).toEqual({ title: "file.md", content: "# 제목\n\n본문입니다.", mimeType: "text/markdown", contentHash: contentHash("# 제목\n\n본문입니다.") });
  });

  it("gives the same hash to the same text saved with Windows line endings", async () => {
    expect((await prepareDocument({ title: "a.txt", content: "one\r\ntwo" })).contentHash).toBe((await prepareDocument({ title: "b.txt", content: "one\ntwo" })).contentHash);
  });
});
