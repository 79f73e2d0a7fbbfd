/**
 * Files picked for upload, sent as their bytes in base64: the API recognises PDF, DOCX, HTML, Markdown and
 * text by their content, so nothing is refused here by its name (the picker only suggests those
 * extensions). Each is titled by its name without the extension; `.md` files are declared Markdown (the
 * one thing bytes cannot tell).
 */
export const FILE_ACCEPT = ".txt,.md,.markdown,.pdf,.docx,.html,.htm,text/plain,text/markdown,text/html,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export interface PickedDocument {
  title: string;
  content: string;
  encoding?: "BASE64";
  mimeType?: string;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

/** The type to declare: Markdown by extension, else what the browser says (the API's detection decides anyway). */
export function mimeTypeFor(name: string, browserType: string): string | undefined {
  if ([".md", ".markdown"].includes(extensionOf(name))) return "text/markdown";
  return browserType || undefined;
}

export function titleFor(name: string): string {
  const ext = extensionOf(name);
  const base = ext ? name.slice(0, -ext.length) : name;
  return base.trim() || name;
}

/** The file's bytes in base64, through FileReader (the same call in every browser and in jsdom). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === "string" ? reader.result : "";
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`cannot read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

export async function readDocumentFiles(files: readonly File[]): Promise<PickedDocument[]> {
  const documents: PickedDocument[] = [];
  for (const file of files) {
    const mimeType = mimeTypeFor(file.name, file.type);
    documents.push({ title: titleFor(file.name), content: await readBase64(file), encoding: "BASE64", ...(mimeType ? { mimeType } : {}) });
  }
  return documents;
}
