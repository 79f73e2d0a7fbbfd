import { docxWith, pdfWithText, scannedPdf } from "@weft/providers/testing";
import { afterEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

describeEachDatabase(
  "files as run inputs",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    async function start(file: { name: string; base64: string }, content?: string) {
      api ??= await startTestApp(suite.db());
      // in ──▶ g1 (echo) ──▶ out
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId, input: { inputs: [{ nodeId: "in", file, ...(content ? { content } : {}) }] } });
      return runWorkflow;
    }

    const storedInput = async (runId: string) => ((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).request as { inputs: { in: string } }).inputs.in;

    test("a PDF's text layer and a DOCX's text become the input node's content", async () => {
      const pdf = await start({ name: "brief.pdf", base64: base64(await pdfWithText([["First page."], ["Second page."]])) });
      expect(pdf.errors).toEqual([]);
      expect(await storedInput(pdf.run!.id)).toBe("First page.\n\nSecond page.");
      const docx = await start({ name: "brief.docx", base64: base64(await docxWith("Brief", ["One paragraph."])) });
      expect(await storedInput(docx.run!.id)).toBe("# Brief\n\nOne paragraph.");
    });

    test("a scanned PDF, an image and a file given with content are refused with their codes, naming the entry", async () => {
      const scanned = await start({ name: "scan.pdf", base64: base64(await scannedPdf()) });
      expect(scanned).toMatchObject({ run: null, errors: [{ code: "DOCUMENT_NO_TEXT", path: ["input", "inputs", "0", "file"] }] });
      const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=";
      const image = await start({ name: "photo.pdf", base64: png });
      expect(image).toMatchObject({ run: null, errors: [{ code: "DOCUMENT_TYPE_UNSUPPORTED", path: ["input", "inputs", "0", "file"] }] });
      const both = await start({ name: "a.txt", base64: base64("text") }, "also text");
      expect(both).toMatchObject({ run: null, errors: [{ code: "VALIDATION_FAILED", path: ["input", "inputs", "0"] }] });
      expect(await suite.db().prisma.run.count()).toBe(0);
    });
  },
  { modes: ["embedded"] },
);
