"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useDescribeError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { FILE_ACCEPT, readDocumentFiles, type PickedDocument } from "./document-files";
import { AddDocumentsMutation } from "./knowledge-bases.operations";

type Mode = "paste" | "upload";

export function AddDocumentsForm({ knowledgeBaseId, onAdded }: { knowledgeBaseId: string; onAdded: () => void }) {
  const t = useT();
  const toast = useToast();
  const describe = useDescribeError();
  const [mode, setMode] = useState<Mode>("paste");
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [state, add] = useMutation(AddDocumentsMutation);

  async function collect(): Promise<PickedDocument[] | null> {
    if (mode === "paste") return [{ title: title.trim(), content, mimeType: "text/plain" }];
    return readDocumentFiles(files);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const documents = await collect();
    if (!documents || documents.length === 0) return;
    const response = await add({ knowledgeBaseId, documents });
    if (response.error) return setError(describe(response.error));
    const payload = response.data?.addDocuments;
    if (!payload || payload.errors.length > 0) {
      return setError(payload?.errors.map((e) => (e.path?.length ? `${e.path.join(".")}: ${e.message}` : e.message)).join("; ") ?? "");
    }
    toast.show({ tone: "success", message: t("knowledgeBases.docs.added", { count: payload.documents.length }) });
    setTitle("");
    setContent("");
    setFiles([]);
    onAdded();
  }

  const canSubmit = mode === "paste" ? title.trim().length > 0 && content.trim().length > 0 : files.length > 0;
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={t("knowledgeBases.docs.add")}>
      <h2>{t("knowledgeBases.docs.add")}</h2>
      <div className="tabs" role="tablist">
        {(["paste", "upload"] as const).map((m) => (
          <button key={m} type="button" role="tab" className="btn btn--sm" aria-selected={mode === m} onClick={() => setMode(m)}>
            {m === "paste" ? t("knowledgeBases.docs.paste") : t("knowledgeBases.docs.upload")}
          </button>
        ))}
      </div>
      {mode === "paste" ? (
        <>
          <label className="field">
            <span>{t("knowledgeBases.docs.docTitle")}</span>
            <input type="text" value={title} maxLength={200} placeholder={t("knowledgeBases.docs.docTitlePlaceholder")} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label className="field">
            <span>{t("knowledgeBases.docs.content")}</span>
            <textarea rows={8} value={content} onChange={(e) => setContent(e.target.value)} />
          </label>
        </>
      ) : (
        <label className="field">
          <span>{t("knowledgeBases.docs.files")}</span>
          <input type="file" multiple accept={FILE_ACCEPT} onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
          {files.length > 0 ? <span className="hint">{t("knowledgeBases.docs.filesChosen", { count: files.length })}</span> : null}
        </label>
      )}
      {error ? <p className="field__error" role="alert">{error}</p> : null}
      <Button type="submit" variant="primary" busy={state.fetching} disabled={!canSubmit}>
        {t("knowledgeBases.docs.submit")}
      </Button>
    </form>
  );
}
