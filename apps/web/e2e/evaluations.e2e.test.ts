import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import { englishLeftOnPage } from "./harness/korean-leftovers.js";
import { graphqlRequest as graphqlRequestTo, importWorkflow as importWorkflowTo } from "./harness/graphql-request.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { startWeftStack, type WeftStack } from "./harness/weft-stack.js";

/**
 * Evaluations in headless Chromium against the real API and the built UI: a dataset created and its
 * rows imported from a JSONL file (a broken CSV refused with its code and nothing added); version 1 and
 * the draft each run over it as an experiment; their comparison names the regressed and the improved row;
 * the publish gate set on its page refuses the draft in the editor's publish dialog with the failing
 * scorer and the regressed row; the gate's dataset cannot be deleted (CONFLICT shown), another one can; a
 * slow experiment is cancelled while it runs; the pages speak Korean.
 *
 *   question ─► answer (llm, offline scripted) ─► result
 *   version 1 answers only "alpha" right, the draft only "bravo" (the model says "wrong" otherwise)
 */

/** The scripted offline model answering right only for the questions `right` names, "wrong" otherwise. */
function rightOnly(right: string, delayMs = 0): Record<string, unknown> {
  const reply = (output: string) => ({ description: "answered", output });
  return { match: [{ pattern: right, replies: [reply(right)] }], replies: [reply("wrong")], ...(delayMs > 0 ? { delayMs } : {}) };
}

/** A v1 document's prompts and output format, as the shipped example has them. */
const { prompts, outputFormat } = JSON.parse(readFileSync(fileURLToPath(new URL("../../../examples/summarize.json", import.meta.url)), "utf8")) as { prompts: unknown; outputFormat: string };

function workflowDocument(name: string, params: Record<string, unknown>) {
  return {
    format: "weft.workflow/v1",
    name,
    prompts,
    outputFormat,
    nodes: [
      { id: "question", type: "input", content: "alpha", position: { x: 0, y: 0 } },
      { id: "answer", type: "generation", provider: "offline", model: "scripted", params, position: { x: 300, y: 0 } },
      { id: "result", type: "output", position: { x: 600, y: 0 } },
    ],
    edges: [
      { source: "question", target: "answer" },
      { source: "answer", target: "result" },
    ],
  };
}

const ROWS_JSONL = ["alpha", "bravo", "charlie"].map((word) => JSON.stringify({ inputs: { question: word }, expected: word, tags: ["greek"] })).join("\n");

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
let workflowId = "";
let slowWorkflowId = "";
let datasetId = "";
const experimentIds: string[] = [];

const poll = <T>(read: () => Promise<T> | T, timeout = 60_000) => expect.poll(read, { timeout, interval: 100 });
const graphqlRequest = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(stack.apiUrl, query, variables);

const importWorkflow = (document: unknown) => importWorkflowTo(stack.apiUrl, document);

const experimentCount = async () =>
  (await graphqlRequest<{ experiments: { totalCount: number } }>("query ($id: ID!) { experiments(workflowId: $id) { totalCount } }", { id: workflowId })).experiments.totalCount;

/** Starts an experiment from the experiments page's form with its default scorer (exact) and opens it. */
async function startExperimentFromPage(target: string): Promise<string> {
  const form = page.getByRole("form", { name: "Start an experiment" });
  await form.getByRole("combobox", { name: "Run", exact: true }).selectOption({ label: target });
  await form.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/experiments\/[^/?]+$/);
  const id = new URL(page.url()).pathname.split("/").pop() ?? "";
  experimentIds.push(id);
  return id;
}

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startWeftStack();
  workflowId = await importWorkflow(workflowDocument("Greek letters", rightOnly("alpha")));
  slowWorkflowId = await importWorkflow(workflowDocument("Slow letters", rightOnly("alpha", 600_000)));
  await graphqlRequest("mutation ($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code } } }", { id: workflowId });
  // The draft now answers only "bravo" right: version 1 stays as it was.
  await graphqlRequest(
    "mutation ($workflowId: ID!, $input: UpdateNodeInput!) { updateNode(workflowId: $workflowId, nodeId: \"answer\", input: $input) { errors { code message } } }",
    { workflowId, input: { params: rightOnly("bravo") } },
  );
  await page.goto(stack.entryUrl); // the UI learns this stack's API from ?api= and keeps it
  await page.getByRole("heading", { name: "Workflows" }).waitFor();
});

browserSuiteHooks(() => ({ browser, stack }), "evaluations-");

describe("evaluations in a real browser", () => {
  it("creates a dataset and imports its rows from a JSONL file; a broken CSV is refused with its code and adds nothing", async () => {
    await page.goto(`${stack.webUrl}/workflows`);
    await page.getByRole("navigation").getByRole("link", { name: "Datasets" }).click();
    await page.getByRole("heading", { name: "Datasets", level: 1 }).waitFor();
    const create = page.getByRole("form", { name: "New dataset" });
    await create.getByLabel("Name", { exact: true }).fill("greek");
    await create.getByLabel("Description (optional)").fill("three letters");
    await create.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "greek", level: 1 }).waitFor();
    datasetId = new URL(page.url()).pathname.split("/").pop() ?? "";

    const importForm = page.getByRole("form", { name: "Import rows" });
    await importForm.getByLabel("File", { exact: true }).setInputFiles({ name: "greek.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(ROWS_JSONL) });
    await importForm.getByRole("button", { name: "Import" }).click();
    await poll(() => page.getByRole("table", { name: "Rows" }).locator("tbody tr").count()).toBe(3);
    expect(await page.locator("tr[data-position='2']").textContent()).toContain("bravo");
    await browser.screenshot("evaluations-dataset-rows");

    // A CSV with both expected columns is refused whole: the code in words, the server's sentence, no row added.
    await importForm.getByLabel("File", { exact: true }).setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("question,expected,expected_json\ndelta,delta,\"\"\"delta\"\"\"\n") });
    await importForm.getByRole("button", { name: "Import" }).click();
    const errors = page.getByTestId("import-errors");
    await errors.waitFor();
    expect(await errors.locator("li").first().getAttribute("data-code")).toBe("VALIDATION_FAILED");
    expect(await errors.textContent()).toContain("Not valid");
    const rows = await graphqlRequest<{ dataset: { rowCount: number } }>("query ($id: ID!) { dataset(id: $id) { rowCount } }", { id: datasetId });
    expect(rows.dataset.rowCount).toBe(3);
    await browser.screenshot("evaluations-import-refused");
  });

  it("runs version 1 over the dataset, started from the versions page, with results beside the expected values and the summary", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/versions`);
    await page.locator("tr[data-version='1']").getByRole("link", { name: "Evaluate" }).click();
    await page.getByRole("heading", { name: "Experiments: Greek letters", level: 1 }).waitFor();
    expect(await page.getByRole("form", { name: "Start an experiment" }).getByRole("combobox", { name: "Run", exact: true }).inputValue()).toBe("1");
    await startExperimentFromPage("Version 1");
    await page.getByRole("heading", { name: "Experiment: Version 1", level: 1 }).waitFor();
    await poll(() => page.getByTestId("experiment-status").getAttribute("data-status")).toBe("COMPLETED");
    await poll(() => page.getByRole("table", { name: "Results" }).locator("tbody tr").count()).toBe(3);
    const first = page.locator("tr[data-position='1']");
    expect(await first.locator("td").nth(1).textContent()).toBe("alpha");
    expect(await first.locator("td").nth(2).textContent()).toBe("alpha");
    expect(await first.locator("td[data-scorer='exact']").getAttribute("data-pass")).toBe("true");
    expect(await page.locator("tr[data-position='2'] td[data-scorer='exact']").getAttribute("data-pass")).toBe("false");
    expect(await page.locator("tr[data-position='2']").textContent()).toContain("wrong");
    const summary = page.getByTestId("experiment-summary");
    expect(await summary.locator("tr[data-scorer='exact']").textContent()).toContain("0.33");
    expect(await summary.textContent()).toMatch(/Latency p50/);
    expect(await page.getByTestId("experiment-progress").textContent()).toContain("3 of 3 rows done, 0 failed");
    await browser.screenshot("evaluations-experiment-v1");
  });

  it("runs the draft, then compares the two experiments and names the regressed and the improved row", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}`);
    await page.getByTestId("experiments-link").click();
    await page.getByRole("heading", { name: "Experiments: Greek letters", level: 1 }).waitFor();
    await startExperimentFromPage("Draft");
    await poll(() => page.getByTestId("experiment-status").getAttribute("data-status")).toBe("COMPLETED");
    await page.getByRole("link", { name: "All experiments" }).click();
    for (const id of experimentIds) await page.locator(`tr[data-experiment='${id}'] input[type=checkbox]`).check();
    await page.getByRole("button", { name: "Compare" }).click();
    await page.getByRole("heading", { name: "Comparison: Version 1 → Draft", level: 1 }).waitFor();
    expect(await page.getByTestId("regressions").textContent()).toBe("1 regressed");
    expect(await page.getByTestId("improvements").textContent()).toBe("1 improved");
    const rows = page.getByRole("table", { name: "Rows compared" }).locator("tbody tr");
    await poll(() => rows.count()).toBe(3);
    expect(await page.locator("tr[data-position='1']").getAttribute("data-change")).toBe("regressed");
    expect(await page.locator("tr[data-position='2']").getAttribute("data-change")).toBe("improved");
    expect(await page.locator("tr[data-position='3']").getAttribute("data-change")).toBe("same");
    expect(await page.locator("tr[data-position='1']").textContent()).toMatch(/alpha.*wrong/);
    await browser.screenshot("evaluations-comparison");
    await page.getByLabel("Only the rows that regressed").check();
    await poll(() => rows.count()).toBe(1);
  });

  it("sets the publish gate and meets its refusal in the publish dialog with the failing scorer and the regressed row", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/experiments`);
    const gateForm = page.getByRole("form", { name: "Publish gate" });
    await gateForm.getByRole("spinbutton", { name: "Minimum mean (0–1)" }).fill("0.5");
    // A second scorer: no experiment so far has these scorers, so the publish runs the draft's and version
    // 1's anew, and their draft runs redraw the editor while the dialog waits for the outcome.
    await gateForm.getByRole("group", { name: "Add:" }).getByRole("button", { name: "exact" }).click();
    await gateForm.getByRole("button", { name: "Save gate" }).click();
    await page.getByText("Publish gate saved").waitFor();
    const gate = await graphqlRequest<{ workflow: { publishGate: { datasetId: string; minMean: number; noRegression: boolean } | null } }>(
      "query ($id: ID!) { workflow(id: $id) { publishGate { datasetId minMean noRegression } } }",
      { id: workflowId },
    );
    expect(gate.workflow.publishGate).toEqual({ datasetId, minMean: 0.5, noRegression: true });
    const experimentsBefore = await experimentCount();

    await page.goto(`${stack.webUrl}/workflows/${workflowId}`);
    await page.getByRole("button", { name: "Publish…", exact: true }).click();
    const dialog = page.getByRole("form", { name: "Publish a version" });
    await dialog.getByRole("button", { name: "Publish", exact: true }).click();
    const refusal = page.getByTestId("gate-refusal");
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.getByTestId("gate-refusal-scorers").textContent()).toBe("Scorers below the minimum mean: exact, exact-2");
    expect(await experimentCount()).toBe(experimentsBefore + 2);
    expect(await refusal.getByTestId("gate-refusal-rows").textContent()).toBe("Rows that regressed: 1");
    expect(await refusal.locator("li").last().textContent()).toMatch(/1 rows regressed against version 1 .*: rows 1$/);
    const versions = await graphqlRequest<{ workflow: { publishedVersion: { number: number } } }>("query ($id: ID!) { workflow(id: $id) { publishedVersion { number } } }", { id: workflowId });
    expect(versions.workflow.publishedVersion.number).toBe(1);
    await browser.screenshot("evaluations-gate-refused");
    await refusal.getByRole("link", { name: "Compare the two experiments" }).click();
    await page.getByRole("heading", { name: "Comparison: Version 1 → Draft", level: 1 }).waitFor();
    expect(await page.getByTestId("regressions").textContent()).toBe("1 regressed");
  });

  it("refuses to delete the dataset the gate names, with its code in words, and deletes another one", async () => {
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${stack.webUrl}/datasets/${datasetId}`);
    await page.getByRole("button", { name: "Delete dataset" }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "Conflict" });
    await refusal.waitFor();
    expect(await refusal.locator("li").getAttribute("data-code")).toBe("CONFLICT");
    expect((await graphqlRequest<{ dataset: { id: string } | null }>("query ($id: ID!) { dataset(id: $id) { id } }", { id: datasetId })).dataset).not.toBeNull();

    await page.goto(`${stack.webUrl}/datasets`);
    const create = page.getByRole("form", { name: "New dataset" });
    await create.getByLabel("Name", { exact: true }).fill("scratch");
    await create.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "scratch", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Delete dataset" }).click();
    await page.getByRole("heading", { name: "Datasets", level: 1 }).waitFor();
    await poll(() => page.getByRole("table", { name: "Datasets" }).locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("greek")]);
    page.removeAllListeners("dialog");
  });

  it("shows a slow experiment running live and cancels it", async () => {
    await page.goto(`${stack.webUrl}/workflows/${slowWorkflowId}/experiments`);
    await startExperimentFromPage("Draft");
    await poll(() => page.getByTestId("experiment-status").getAttribute("data-status")).toBe("RUNNING");
    await page.getByTestId("experiment-live").waitFor();
    await browser.screenshot("evaluations-running");
    await page.getByRole("button", { name: "Cancel experiment" }).click();
    await poll(() => page.getByTestId("experiment-status").getAttribute("data-status")).toBe("CANCELLED");
    expect(await page.getByRole("button", { name: "Cancel experiment" }).count()).toBe(0);
  });

  it("leaves no English on the evaluation pages in Korean mode", async () => {
    await page.goto(`${stack.webUrl}/datasets`);
    await page.getByLabel("Language").selectOption("ko");
    const [a, b] = experimentIds;
    const pages: [string, string][] = [
      ["datasets", "/datasets"],
      ["dataset", `/datasets/${datasetId}`],
      ["experiments", `/workflows/${workflowId}/experiments`],
      ["experiment", `/workflows/${workflowId}/experiments/${a}`],
      ["compare", `/workflows/${workflowId}/experiments/compare?a=${a}&b=${b}`],
    ];
    const dataWords = new Set(["greek", "three", "letters", "slow", "question", "answer", "result", "alpha", "bravo", "charlie", "wrong"]);
    const leftovers: string[] = [];
    for (const [name, path] of pages) {
      await page.goto(`${stack.webUrl}${path}`);
      await page.locator("main h1").waitFor();
      await page.waitForLoadState("networkidle");
      await browser.screenshot(`evaluations-korean-${name}`);
      const words = await englishLeftOnPage(page, dataWords);
      if (words.length > 0) leftovers.push(`${name}: ${words.join(", ")}`);
    }
    await page.getByLabel("언어").selectOption("en");
    expect(leftovers).toEqual([]);
  });
});
