/**
 * Files picked for upload: only plain text and Markdown are accepted (the API chunks text), each read
 * as UTF-8 and titled by its name without the extension.
 */
export const ACCEPTED_EXTENSIONS = [".txt", ".md", ".markdown"] as const;
export const FILE_ACCEPT = ".txt,.md,.markdown,text/plain,text/markdown";

export interface PickedDocument {
  title: string;
  content: string;
  mimeType: "text/plain" | "text/markdown";
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

export function isAcceptedFile(name: string): boolean {
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

export function mimeTypeFor(name: string): PickedDocument["mimeType"] {
  return extensionOf(name) === ".txt" ? "text/plain" : "text/markdown";
}

export function titleFor(name: string): string {
  const ext = extensionOf(name);
  const base = ext ? name.slice(0, -ext.length) : name;
  return base.trim() || name;
}

/** FileReader rather than Blob.text(): the same call works in every browser and in jsdom. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === "string" ? reader.result : "");
    reader.onerror = () => reject(reader.error ?? new Error(`cannot read ${file.name}`));
    reader.readAsText(file, "utf-8");
  });
}

/** Reads accepted files; names of refused ones come back separately so the form can say which. */
export async function readDocumentFiles(files: readonly File[]): Promise<{ documents: PickedDocument[]; refused: string[] }> {
  const documents: PickedDocument[] = [];
  const refused: string[] = [];
  for (const file of files) {
    if (!isAcceptedFile(file.name)) {
      refused.push(file.name);
      continue;
    }
    documents.push({ title: titleFor(file.name), content: await readText(file), mimeType: mimeTypeFor(file.name) });
  }
  return { documents, refused };
}
