import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import { graphqlRequest as graphqlRequestTo } from "./harness/graphql-request.js";
import { englishLeftOnPage } from "./harness/korean-leftovers.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { startWeftStack, type WeftStack } from "./harness/weft-stack.js";

/**
 * A webhook made in the admin UI and called from outside, in headless Chromium against the real API and
 * the built UI: the workflow list links to its triggers; creating a webhook shows its URL and secret
 * once; a signed POST to the URL starts a run, which the trigger's firings list links to.
 *
 *   question ──▶ draft (offline echo) ──▶ answer
 */

const WORKFLOW = {
  format: "weft.workflow/v1",
  name: "Hooked answers",
  prompts: { generation: "{input_data}\n{output_format}", ensemble: "{input_data}\n{output_format}", validation: "{input_data}\n{output_format}" },
  outputFormat: "JSON with description and output",
  nodes: [
    { id: "question", type: "input", content: "placeholder", position: { x: 0, y: 0 } },
    { id: "draft", type: "generation", provider: "offline", model: "echo", position: { x: 260, y: 0 } },
    { id: "answer", type: "output", position: { x: 520, y: 0 } },
  ],
  edges: [
    { id: "e1", source: "question", target: "draft" },
    { id: "e2", source: "draft", target: "answer" },
  ],
};

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
let workflowId = "";
const hook = { url: "", secret: "", runId: "" };

const poll = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout, interval: 100 });
const graphqlRequest = <T>(query: string, variables: Record<string, unknown>) => graphqlRequestTo<T>(stack.apiUrl, query, variables);
const shot = (name: string) => browser.screenshot(`triggers-${name}`);

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startWeftStack();
  const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null } }>(
    "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
    { document: WORKFLOW },
  );
  workflowId = imported.importWorkflow.workflow?.id ?? "";
  await page.goto(stack.entryUrl);
  await page.getByRole("heading", { name: "Workflows" }).waitFor();
});

browserSuiteHooks(() => ({ browser, stack }), "triggers-");

describe("webhooks in a real browser", () => {
  it("opens the workflow's triggers from the list and creates a webhook, showing its URL and secret once", async () => {
    await page.goto(`${stack.webUrl}/workflows`);
    await page.getByTestId("triggers-link").first().click();
    await page.getByRole("heading", { name: `Triggers of ${WORKFLOW.name}` }).waitFor();
    expect(page.url()).toContain(`/workflows/${workflowId}/triggers`);
    await page.getByTestId("mapping-question").fill("body.question");
    await page.getByTestId("create-trigger").click();
    await page.getByTestId("created-webhook").waitFor();
    hook.url = await page.getByTestId("webhook-url").inputValue();
    hook.secret = await page.getByTestId("webhook-secret").inputValue();
    expect(hook.url).toMatch(/\/hooks\/[0-9a-f-]{36}$/);
    expect(hook.secret).toMatch(/^whsec_/);
    await page.getByTestId("trigger").waitFor();
    await shot("created");
    // Gone once dismissed: the secret is never shown again.
    await page.getByRole("button", { name: "Done" }).click();
    await poll(() => page.getByTestId("created-webhook").count()).toBe(0);
    expect(await page.content()).not.toContain(hook.secret);
  });

  it("a signed call starts a run that the trigger's firings link to", async () => {
    const body = JSON.stringify({ question: "Which weave makes diagonal ribs?" });
    const signature = `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`;
    const unsigned = await fetch(hook.url, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(unsigned.status).toBe(401);
    const response = await fetch(hook.url, { method: "POST", headers: { "content-type": "application/json", "x-weft-signature": signature }, body });
    expect(response.status).toBe(202);
    hook.runId = ((await response.json()) as { runId: string }).runId;

    await page.getByTestId("refresh-triggers").click();
    const firing = page.getByTestId("firing").first();
    await poll(() => firing.getAttribute("data-status")).toBe("STARTED");
    await shot("fired");
    await page.getByTestId("firing-run").first().click();
    await page.waitForURL(`**/runs/${hook.runId}`);
    await poll(async () => (await page.content()).includes("Which weave makes diagonal ribs?")).toBe(true);
    await shot("run");
  });

  it("edits a trigger's mapping of each input node, and a call runs with the new ones", async () => {
    // topic ──▶ merge (offline echo) ◀── tone, merge ──▶ answer
    const twoInputs = {
      ...WORKFLOW,
      name: "Two inputs",
      nodes: [
        { id: "topic", type: "input", content: "tea", position: { x: 0, y: 0 } },
        { id: "tone", type: "input", content: "plain", position: { x: 0, y: 120 } },
        { id: "merge", type: "ensemble", provider: "offline", model: "echo", position: { x: 260, y: 60 } },
        { id: "answer", type: "output", position: { x: 520, y: 60 } },
      ],
      edges: [
        { id: "e1", source: "topic", target: "merge" },
        { id: "e2", source: "tone", target: "merge" },
        { id: "e3", source: "merge", target: "answer" },
      ],
    };
    const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null } }>(
      "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
      { document: twoInputs },
    );
    const id = imported.importWorkflow.workflow?.id ?? "";
    await page.goto(`${stack.webUrl}/workflows/${id}/triggers`);
    await page.getByTestId("mapping-topic").fill("body.topic");
    await page.getByTestId("create-trigger").click();
    await page.getByTestId("created-webhook").waitFor();
    const secret = await page.getByTestId("webhook-secret").inputValue();
    const url = await page.getByTestId("webhook-url").inputValue();
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByTestId("edit-mappings").click();
    const card = page.getByTestId("trigger");
    await card.getByTestId("mapping-topic").fill("body.subject");
    await card.getByTestId("mapping-tone").fill("'tone: ' + query.tone");
    await shot("mappings");
    await card.getByTestId("save-mappings").click();
    await poll(() => card.getByTestId("save-mappings").count()).toBe(0);
    await poll(async () => (await card.textContent()) ?? "").toContain("tone ← 'tone: ' + query.tone");
    const stored = await graphqlRequest<{ triggers: { inputs: { nodeId: string; from: string }[] }[] }>("query ($id: ID!) { triggers(workflowId: $id) { inputs { nodeId from } } }", { id });
    expect(stored.triggers[0]?.inputs).toEqual([{ nodeId: "topic", from: "body.subject" }, { nodeId: "tone", from: "'tone: ' + query.tone" }]);

    const body = JSON.stringify({ subject: "oolong" });
    const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
    const response = await fetch(`${url}?tone=warm`, { method: "POST", headers: { "content-type": "application/json", "x-weft-signature": signature }, body });
    expect(response.status).toBe(202);
    const { runId } = (await response.json()) as { runId: string };
    const run = await graphqlRequest<{ run: { request: { inputs: Record<string, string> } } }>("query ($id: ID!) { run(id: $id) { request } }", { id: runId });
    expect(run.run.request.inputs).toEqual({ topic: "oolong", tone: "tone: warm" });
  });

  it("lists the trigger's runs, and a disabled webhook answers 404", async () => {
    await page.goto(`${stack.webUrl}/runs?trigger=${hook.url.split("/").at(-1)}`);
    await poll(() => page.locator(`a[href="/runs/${hook.runId}"]`).count()).toBeGreaterThan(0);
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/triggers`);
    await page.getByTestId("toggle-trigger").click();
    await poll(() => page.getByTestId("toggle-trigger").textContent()).toBe("Enable");
    const body = "{}";
    const signature = `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`;
    expect((await fetch(hook.url, { method: "POST", headers: { "content-type": "application/json", "x-weft-signature": signature }, body })).status).toBe(404);
    await shot("disabled");
  });

  it("serves the workflow as an MCP tool: refusals at the field, a note until a version is published, then listed and called over /mcp", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/triggers`);
    const card = page.getByTestId("mcp-tool");
    await card.waitFor();
    await card.getByTestId("mcp-unpublished").waitFor();
    await card.getByTestId("mcp-enabled").check();
    await card.getByTestId("mcp-tool-name").fill("weave answers");
    await card.getByRole("button", { name: "Save MCP settings" }).click();
    const refusal = card.getByTestId("mcp-tool-name").locator("xpath=..").getByRole("alert");
    await poll(() => refusal.getAttribute("data-code")).toBe("MCP_TOOL_NAME_INVALID");
    await shot("mcp-refused");
    await card.getByTestId("mcp-tool-name").fill("weave_answers");
    await card.getByTestId("mcp-description").fill("Answers questions about weaves.");
    await card.getByRole("button", { name: "Save MCP settings" }).click();
    await poll(() => refusal.count()).toBe(0);
    // Saved but not offered: tools/list only lists workflows with a published version.
    await poll(() => card.getByTestId("mcp-state").textContent()).toBe("Not offered at /mcp.");
    const stored = await graphqlRequest<{ workflow: { mcp: unknown } }>("query ($id: ID!) { workflow(id: $id) { mcp { enabled toolName description } } }", { id: workflowId });
    expect(stored.workflow.mcp).toEqual({ enabled: true, toolName: "weave_answers", description: "Answers questions about weaves." });

    const endpoint = await card.getByTestId("mcp-endpoint").inputValue();
    expect(endpoint).toBe(`${stack.apiUrl}/mcp`);
    // The server runs without keys here (local mode), so the configuration has no header.
    expect(JSON.parse((await card.getByTestId("mcp-config-json").textContent()) ?? "")).toEqual({ mcpServers: { weft: { url: endpoint } } });
    const client = new McpClient({ name: "weft-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("weave_answers");
      await graphqlRequest("mutation ($id: ID!) { publishWorkflow(id: $id) { errors { code message } } }", { id: workflowId });
      await page.reload();
      await poll(() => card.getByTestId("mcp-state").textContent()).toBe("Offered at /mcp as weave_answers.");
      expect(await card.getByTestId("mcp-unpublished").count()).toBe(0);
      await shot("mcp-offered");
      await page.goto(`${stack.webUrl}/workflows`);
      await poll(() => page.locator(`[data-workflow-id="${workflowId}"]`).getByTestId("mcp-link").getAttribute("title")).toBe("Offered at /mcp as weave_answers.");
      const tool = (await client.listTools()).tools.find((listed) => listed.name === "weave_answers");
      expect(tool?.description).toBe("Answers questions about weaves.");
      const result = await client.callTool({ name: "weave_answers", arguments: { question: "Which weave makes diagonal ribs?" } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain("Which weave makes diagonal ribs?");
    } finally {
      await client.close();
    }
  });

  it("leaves no English on the triggers page with its MCP card in Korean", async () => {
    await page.goto(`${stack.webUrl}/workflows/${workflowId}/triggers`);
    await page.getByLabel("Language").selectOption("ko");
    await page.getByTestId("mcp-tool").waitFor();
    await page.waitForLoadState("networkidle");
    await shot("korean");
    // Besides the workflow's own words: CEL's variables (body, headers, query) and cron, which the Korean
    // trigger form names as users write them.
    const words = await englishLeftOnPage(page, new Set(["hooked", "answers", "question", "weave", "body", "headers", "query", "cron"]));
    await page.getByLabel("언어").selectOption("en");
    expect(words).toEqual([]);
  });
});
