import { describe, expect, it } from "vitest";
import { contentHash, prepareDocument, type RawDocument } from "./document-content.js";

function codeOf(raw: RawDocument): string {
  try {
    prepareDocument(raw);
    return "OK";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64");

describe("prepareDocument", () => {
  it("refuses each kind of bad document with its own code", () => {
    expect(codeOf({ title: "empty.txt", content: "  \n " })).toBe("EMPTY_DOCUMENT");
    expect(codeOf({ title: "slides.pdf", content: "x", mimeType: "application/pdf" })).toBe("UNSUPPORTED_DOCUMENT_TYPE");
    expect(codeOf({ title: "bytes.bin", content: base64(Buffer.from([0xff, 0xfe, 0x00])), encoding: "BASE64" })).toBe("INVALID_DOCUMENT_ENCODING");
    expect(codeOf({ title: "not-base64.txt", content: "%%%", encoding: "BASE64" })).toBe("INVALID_DOCUMENT_ENCODING");
    expect(codeOf({ title: "  ", content: "text" })).toBe("INVALID_DOCUMENT");
    expect(codeOf({ title: "huge.txt", content: "x".repeat(2_000_001) })).toBe("DOCUMENT_TOO_LARGE");
  });

  it("refuses a base64 file holding a NUL byte: valid UTF-8, but binary and not storable", () => {
    expect(codeOf({ title: "nul.txt", content: base64("a\u0000b"), encoding: "BASE64" })).toBe("INVALID_DOCUMENT_ENCODING");
  });

  it("decodes UTF-8 files, drops the byte-order mark, unifies line endings and guesses Markdown from the title", () => {
    const document = prepareDocument({ title: " file.md ", content: base64("\uFEFF# 제목\r\n\r\n본문입니다."), encoding: "BASE64" });
    expect(document).toEqual({ title: "file.md", content: "# 제목\n\n본문입니다.", mimeType: "text/markdown", contentHash: contentHash("# 제목\n\n본문입니다.") });
  });

  it("gives the same hash to the same text saved with Windows line endings", () => {
    expect(prepareDocument({ title: "a.txt", content: "one\r\ntwo" }).contentHash).toBe(prepareDocument({ title: "b.txt", content: "one\ntwo" }).contentHash);
  });
});
