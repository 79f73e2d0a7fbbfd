/** Turning a workflow name into a download file name, and reading an uploaded file. */

export const WORKFLOW_FILE_SUFFIX = ".weft.json";
/** The server refuses bigger documents anyway; refusing here avoids uploading them. */
export const MAX_WORKFLOW_FILE_BYTES = 2 * 1024 * 1024;

export function workflowFileName(name: string): string {
  const slug = name
    .normalize("NFKC")
    .trim()
    .replace(/[\\/:*?"<>|]+/g, "")
    .replace(/\p{Cc}+/gu, "")
    .replace(/\s+/g, "-")
    .slice(0, 80);
  return `${slug || "workflow"}${WORKFLOW_FILE_SUFFIX}`;
}

export type WorkflowFileRead = { ok: true; text: string } | { ok: false; code: "FILE_TOO_LARGE" | "FILE_UNREADABLE"; message: string };

export async function readWorkflowFile(file: File): Promise<WorkflowFileRead> {
  if (file.size > MAX_WORKFLOW_FILE_BYTES) {
    return { ok: false, code: "FILE_TOO_LARGE", message: `${file.name} is ${file.size} bytes; the limit is ${MAX_WORKFLOW_FILE_BYTES}` };
  }
  try {
    return { ok: true, text: await readText(file) };
  } catch (error) {
    return { ok: false, code: "FILE_UNREADABLE", message: (error as Error).message };
  }
}

// FileReader rather than Blob.text(): the same code then runs in every browser and in jsdom.
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(reader.error ?? new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}

/** Saves text as a file through a temporary link; the browser's download UI takes over. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
