import type { Workflow } from "@weft/engine";
import { docxWith, htmlPage, pdfWithText, scannedPdf, startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * PDF, DOCX and HTML files in knowledge bases through the real server, on both vector stores: each is
 * recognised by its content whatever its name or declared type says, its text extracted off the request
 * (PDF page by page, reported on ingestionProgress), and a PDF's chunks carry their page, which a
 * retrieve node's filter can select.
 */

const CreateKb = graphql(`
  mutation DocsCreateKb($input: CreateKnowledgeBaseInput!) {
    createKnowledgeBase(input: $input) { knowledgeBase { id store } errors { code message } }
  }
`);

const AddDocs = graphql(`
  mutation DocsAdd($id: ID!, $documents: [DocumentInput!]!, $wait: Boolean) {
    addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: $wait) {
      documents { id title status mimeType chunkCount error }
      errors { code message path }
    }
  }
`);

const Chunks = graphql(`
  query DocsChunks($id: ID!) {
    documentChunks(documentId: $id, first: 100) { edges { node { text source { page chunkIndex } } } }
  }
`);

const Progress = graphql(`
  subscription DocsProgress($id: ID!) {
    ingestionProgress(knowledgeBaseId: $id) { documentId phase status pagesDone pagesTotal }
  }
`);

const RunOutput = graphql(`
  query DocsRunOutput($id: ID!) { run(id: $id) { status result error { code message } } }
`);

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const PAGES = [
  ["Chapter one: rolling oolong leaves by hand."],
  ["Chapter two: roasting oolong over charcoal."],
  ["Chapter three: steeping oolong at ninety degrees."],
];

let weaviate: WeaviateServer | undefined;
afterAll(async () => {
  await weaviate?.stop();
});

describeEachDatabase(
  "documents beyond plain text",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    describe.each(["pgvector", "weaviate"] as const)("in %s", (store) => {
      async function knowledgeBase(name: string) {
        const env: Record<string, string> = { WEFT_CHUNK_SIZE: "200" };
        if (store === "weaviate") {
          weaviate ??= await startWeaviateServer();
          Object.assign(env, { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(weaviate.grpcPort) });
        }
        api = await startTestApp(suite.db(), { env });
        const { createKnowledgeBase } = await api.admin.request(CreateKb, { input: { name } });
        expect(createKnowledgeBase.knowledgeBase!.store).toBe(store);
        return createKnowledgeBase.knowledgeBase!.id;
      }

      test("PDF, mislabelled DOCX and HTML are read by content; PDF chunks carry their page; progress comes by page", async () => {
        const id = await knowledgeBase(`docs-${store}`);
        const ws = api!.admin.ws();
        const progress = api!.admin.subscribe(ws, Progress, { id });
        const { addDocuments } = await api!.admin.request(AddDocs, {
          id,
          wait: true,
          documents: [
            { title: "oolong.pdf", content: base64(await pdfWithText(PAGES)), encoding: "BASE64" },
            { title: "report.pdf", content: base64(await docxWith("Tea report", ["Green tea is steamed or pan-fired soon after picking."])), encoding: "BASE64", mimeType: "application/pdf" },
            { title: "page.txt", content: base64(htmlPage("Puer notes", ["Puer tea is fermented and aged for years."])), encoding: "BASE64", mimeType: "text/plain" },
          ],
        });
        await ws.dispose();
        expect(addDocuments.errors).toEqual([]);
        expect(addDocuments.documents.map((document) => [document.title, document.status, document.mimeType])).toEqual([
          ["oolong.pdf", "READY", "application/pdf"],
          ["report.pdf", "READY", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
          ["page.txt", "READY", "text/html"],
        ]);
        const [pdf, docx, html] = addDocuments.documents;
        const pdfChunks = (await api!.admin.request(Chunks, { id: pdf!.id })).documentChunks!.edges.map((edge) => edge.node);
        expect(pdfChunks.map((chunk) => [chunk.source.page, chunk.text.includes(["rolling", "roasting", "steeping"][chunk.source.page! - 1]!)])).toEqual([
          [1, true],
          [2, true],
          [3, true],
        ]);
        const docxText = (await api!.admin.request(Chunks, { id: docx!.id })).documentChunks!.edges.map((edge) => edge.node.text).join(" ");
        expect(docxText).toContain("Green tea is steamed");
        const htmlText = (await api!.admin.request(Chunks, { id: html!.id })).documentChunks!.edges.map((edge) => edge.node.text).join(" ");
        expect(htmlText).toContain("Puer tea is fermented");
        expect(htmlText).not.toContain("Cookie settings");
        const steps = progress.items.map((item) => item.ingestionProgress).filter((step) => step.documentId === pdf!.id && step.phase === "extracting");
        expect(steps.map((step) => step.pagesDone)).toEqual([0, 1, 2, 3]);
        expect(steps.at(-1)).toMatchObject({ pagesTotal: 3, status: "INDEXING" });

        // A retrieve node's filter selects page 2 only.
        //   q ──▶ find (retrieve, filter page 2) ──▶ out
        const workflow = {
          name: "pages", prompts: {}, outputFormat: "", knowledgeBase: null, intensity: "MEDIUM",
          nodes: [
            { id: "q", type: "input", content: "oolong" },
            { id: "find", type: "retrieve", config: { knowledgeBase: `docs-${store}`, topK: 5, filter: { page: 2 } } },
            { id: "out", type: "output" },
          ],
          edges: [{ id: "e1", source: "q", target: "find" }, { id: "e2", source: "find", target: "out" }],
        } as unknown as Workflow;
        const workflowId = await seedWorkflow(suite.db(), workflow);
        const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId, input: { draft: true } });
        expect(runWorkflow.errors).toEqual([]);
        let run = (await api!.admin.request(RunOutput, { id: runWorkflow.run!.id })).run!;
        while (run.status === "QUEUED" || run.status === "RUNNING") {
          await new Promise((resolve) => setTimeout(resolve, 50));
          run = (await api!.admin.request(RunOutput, { id: runWorkflow.run!.id })).run!;
        }
        expect(run.status).toBe("COMPLETED");
        const found = JSON.parse(run.result!) as { page: number; text: string }[];
        expect(found.length).toBeGreaterThan(0);
        expect(found.every((chunk) => chunk.page === 2 && chunk.text.includes("roasting"))).toBe(true);
      });

      test("a scanned PDF fails with DOCUMENT_NO_TEXT and leaves no chunk; an image is refused with DOCUMENT_TYPE_UNSUPPORTED", async () => {
        const id = await knowledgeBase(`scans-${store}`);
        const { addDocuments } = await api!.admin.request(AddDocs, { id, wait: true, documents: [{ title: "scan.pdf", content: base64(await scannedPdf()), encoding: "BASE64" }] });
        expect(addDocuments.documents).toMatchObject([{ status: "FAILED", chunkCount: 0, error: expect.stringMatching(/^DOCUMENT_NO_TEXT: /) }]);
        expect(addDocuments.errors).toMatchObject([{ code: "DOCUMENT_NO_TEXT", path: ["documents", "0"] }]);
        const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=";
        const refused = await api!.admin.request(AddDocs, { id, documents: [{ title: "photo.pdf", content: png, encoding: "BASE64", mimeType: "application/pdf" }] });
        expect(refused.addDocuments).toMatchObject({ documents: [], errors: [{ code: "DOCUMENT_TYPE_UNSUPPORTED", path: ["documents", "0"] }] });
        expect(await suite.db().prisma.document.count({ where: { knowledgeBaseId: id } })).toBe(1);
      });
    });
  },
  { modes: ["embedded"] },
);
