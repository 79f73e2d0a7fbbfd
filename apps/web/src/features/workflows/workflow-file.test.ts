import { describe, expect, it } from "vitest";
import { MAX_WORKFLOW_FILE_BYTES, readWorkflowFile, workflowFileName } from "./workflow-file";

describe("workflowFileName", () => {
  it("turns spaces into dashes and drops characters file systems refuse", () => {
    expect(workflowFileName(' Support: answer / grade? ')).toBe("Support-answer-grade.weft.json");
  });

  it("keeps Korean names", () => {
    expect(workflowFileName("고객 지원")).toBe("고객-지원.weft.json");
  });

  it("falls back to a generic name when nothing is left", () => {
    expect(workflowFileName("???")).toBe("workflow.weft.json");
  });
});

describe("readWorkflowFile", () => {
  it("reads the file's text", async () => {
    const file = new File(['{"format":"weft.workflow/v1"}'], "a.weft.json");
    expect(await readWorkflowFile(file)).toEqual({ ok: true, text: '{"format":"weft.workflow/v1"}' });
  });

  it("refuses a file over the size limit without reading it", async () => {
    const file = new File([new Uint8Array(MAX_WORKFLOW_FILE_BYTES + 1)], "big.json");
    const read = await readWorkflowFile(file);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.code).toBe("FILE_TOO_LARGE");
  });
});
