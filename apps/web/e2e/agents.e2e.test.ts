import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./harness/browser.js";
import { graphqlRequest as graphqlRequestTo, importWorkflow as importWorkflowTo } from "./harness/graphql-request.js";
import { englishLeftOnPage } from "./harness/korean-leftovers.js";
import { browserSuiteHooks } from "./harness/suite-hooks.js";
import { startWeftStack, type WeftStack } from "./harness/weft-stack.js";

/**
 * Agents, secrets and providers in headless Chromium against the real API and the built UI:
 *
 *   city ─► shout (template) ─► loud                 "Shout a city", published: the tool
 *   q ─► caller (agent, offline scripted) ─► out     step 1 calls the tool twice at once (the second
 *                                                    with a wrong argument), step 2 answers
 *
 *   q ─► gate (human: go) ─go─► caller ─► out       the same agent behind a person's go-ahead
 *
 * The run page shows the agent's steps with each call's arguments and result or error, opens a call's
 * own node run and comes back, and draws them live on a page opened while the run waits at the gate; the secrets page stores, refuses, replaces and deletes a secret without
 * ever showing its value; the settings page lists a configured endpoint's models with their prices.
 * Screenshots go to test-artifacts/e2e/ (prefixed "agents-").
 */

const SHOUT = {
  format: "weft.workflow/v2",
  name: "Shout a city",
  nodes: [
    { id: "city", type: "input", content: "" },
    { id: "shout", type: "template", template: "{input}!!! (loud)" },
    { id: "loud", type: "output" },
  ],
  edges: [
    { id: "e1", source: "city", target: "shout" },
    { id: "e2", source: "shout", target: "loud" },
  ],
};

const callerOf = (workflowId: string) => ({
  format: "weft.workflow/v2",
  name: "Agent with a workflow tool",
  nodes: [
    { id: "q", type: "input", content: "Shout Gwangju." },
    {
      id: "caller",
      type: "agent",
      provider: "offline",
      model: "scripted",
      tools: [{ type: "workflow", workflowId }],
      params: {
        replies: [
          { toolCalls: [{ name: "Shout_a_city", arguments: '{"city": "Gwangju"}' }, { name: "Shout_a_city", arguments: '{"town": "Seoul"}' }], text: "Shouting twice." },
          "Done shouting.",
        ],
      },
    },
    { id: "out", type: "output" },
  ],
  edges: [
    { id: "e1", source: "q", target: "caller" },
    { id: "e2", source: "caller", target: "out" },
  ],
});

/** The caller behind a human step: its run waits until the task is completed, with its page open. */
const gatedCallerOf = (workflowId: string) => {
  const caller = callerOf(workflowId);
  return {
    ...caller,
    name: "Agent behind a go-ahead",
    nodes: [...caller.nodes, { id: "gate", type: "human", title: "Let the agent go", actions: [{ id: "go", label: "Go" }] }],
    edges: [
      { id: "e1", source: "q", target: "gate" },
      { id: "e2", source: "gate", target: "caller", sourcePort: "go" },
      { id: "e3", source: "caller", target: "out" },
    ],
  };
};

/**
 * An OpenAI-compatible endpoint the settings page lists (nothing here calls it), and an MCP server on a
 * loopback port nothing listens on: listed with why its tools could not be.
 */
const PROVIDERS = {
  mcp: { nowhere: { url: "http://127.0.0.1:9/mcp" } },
  local: {
    kind: "openai",
    baseUrl: "http://127.0.0.1:9/v1",
    label: "Local test endpoint",
    apiKey: "{secret.LOCAL_KEY}",
    models: [
      { id: "small-1", label: "Small one", inputUsdPerMTok: 0.15, outputUsdPerMTok: 0.6 },
      { id: "free-1", label: "Free one" },
    ],
  },
};

const SECRET_VALUE = "sk-e2e-never-shown-7f3a9c";
const REPLACED_VALUE = "sk-e2e-replaced-b81d44";

let stack: WeftStack;
let browser: BrowserSession;
let page: Page;
let configDir = "";
let runId = "";
let shoutId = "";

const poll = <T>(read: () => Promise<T> | T, timeout = 60_000) => expect.poll(read, { timeout, interval: 150 });
const graphqlRequest = <T>(query: string, variables: Record<string, unknown> = {}) => graphqlRequestTo<T>(stack.apiUrl, query, variables);
const shot = (name: string) => browser.screenshot(`agents-${name}`);

const importWorkflow = (document: unknown) => importWorkflowTo(stack.apiUrl, document);

beforeAll(async () => {
  configDir = mkdtempSync(path.join(tmpdir(), "weft-e2e-agents-"));
  const providersFile = path.join(configDir, "providers.json");
  writeFileSync(providersFile, JSON.stringify(PROVIDERS));
  browser = await openBrowser();
  page = browser.page;
  stack = await startWeftStack({ env: { WEFT_PROVIDERS_FILE: providersFile, WEFT_SECRET_KEY: "e2e-secret-key-of-at-least-32-characters" } });
  shoutId = await importWorkflow(SHOUT);
  await graphqlRequest("mutation ($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code } } }", { id: shoutId });
  const callerId = await importWorkflow(callerOf(shoutId));
  const started = await graphqlRequest<{ runWorkflow: { run: { id: string } | null } }>("mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code } } }", { id: callerId });
  runId = started.runWorkflow.run?.id ?? "";
  await page.goto(stack.entryUrl); // the UI learns this stack's API from ?api= and keeps it
});

browserSuiteHooks(() => ({ browser, stack }), "agents-");
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

const stepsPanel = () => page.getByTestId("agent-steps");
const call = (callId: string): Locator => stepsPanel().locator(`[data-call-id="${callId}"]`);

describe("agents, secrets and providers in a real browser", () => {
  it("shows the agent's steps on the run page: each call's arguments and result or error, in order", async () => {
    await page.goto(`${stack.webUrl}/runs/${runId}`);
    await page.locator(".react-flow__node[data-id=caller]").click();
    await stepsPanel().waitFor();
    await poll(() => stepsPanel().locator(".agent-step").count()).toBe(2);
    const [first, second] = [stepsPanel().locator(".agent-step").nth(0), stepsPanel().locator(".agent-step").nth(1)];
    expect(await first.textContent()).toContain("Shouting twice.");
    expect(await first.textContent()).toContain("2 tool calls");
    expect(await second.textContent()).toContain("Final answer");
    expect(await second.textContent()).toContain("Done shouting.");
    await poll(() => call("call_1_1").getAttribute("data-call-status")).toBe("ok");
    expect(await call("call_1_1").textContent()).toContain("Gwangju");
    expect(await call("call_1_1").locator("pre").textContent()).toBe("Gwangju!!! (loud)");
    expect(await call("call_1_2").getAttribute("data-call-status")).toBe("failed");
    expect(await call("call_1_2").textContent()).toContain("Seoul");
    expect(await call("call_1_2").locator(".pre--error").textContent()).toMatch(/^TOOL_ARGUMENTS_INVALID: /);
    // The event log says the same in words.
    expect(await page.locator("[data-event-type=AGENT_STEP]").count()).toBe(2);
    expect(await page.locator("[data-event-type=TOOL_RESULT]").count()).toBe(2);
    await shot("run-steps");
  });

  it("opens a tool call's own node run from its call and goes back to the agent", async () => {
    await call("call_1_1").getByRole("button", { name: /Open the call/ }).click();
    const origin = page.getByTestId("tool-call-origin");
    await origin.waitFor();
    expect(await origin.textContent()).toContain("step 1, call 1");
    expect(await origin.textContent()).toContain("call_1_1");
    const details = page.locator(".node-details");
    expect(await details.locator("[data-invocation]").getAttribute("data-invocation")).toBe("caller@1.1");
    await poll(() => details.textContent()).toContain("Gwangju!!! (loud)");
    expect(await stepsPanel().count()).toBe(0);
    await shot("tool-call-node-run");
    await origin.getByRole("button", { name: /Back to the agent/ }).click();
    await stepsPanel().waitFor();
    expect(await page.locator(".node-details [data-invocation]").count()).toBe(0);
  });

  it("draws the agent's steps live on a page opened while its run waits, as the run goes on", async () => {
    const gatedId = await importWorkflow(gatedCallerOf(shoutId));
    const started = await graphqlRequest<{ runWorkflow: { run: { id: string } } }>("mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } } }", { id: gatedId });
    const gatedRun = started.runWorkflow.run.id;
    const task = async () =>
      (await graphqlRequest<{ humanTasks: { edges: { node: { id: string } }[] } }>("query ($id: ID!) { humanTasks(workflowId: $id, status: [OPEN]) { edges { node { id } } } }", { id: gatedId })).humanTasks.edges[0]?.node.id ?? null;
    await poll(task).not.toBeNull();
    await page.goto(`${stack.webUrl}/runs/${gatedRun}`);
    await page.locator(".react-flow__node[data-id=caller]").click();
    await stepsPanel().getByText("The model has not answered a step yet.").waitFor();
    expect(await stepsPanel().locator(".agent-step").count()).toBe(0);
    await shot("live-before");
    // The person goes ahead through the API; the page, never reloaded, follows the run's events.
    const done = await graphqlRequest<{ completeHumanTask: { errors: { code: string }[] } }>("mutation ($id: ID!) { completeHumanTask(id: $id, input: { action: \"go\" }) { errors { code } } }", { id: await task() });
    expect(done.completeHumanTask.errors).toEqual([]);
    await poll(() => stepsPanel().locator(".agent-step").count()).toBe(2);
    await poll(() => call("call_1_1").getAttribute("data-call-status")).toBe("ok");
    expect(await call("call_1_2").getAttribute("data-call-status")).toBe("failed");
    await poll(() => page.locator(".run-header [data-status]").first().getAttribute("data-status")).toBe("COMPLETED");
    await shot("live-after");
  });

  it("stores, refuses, replaces and deletes a secret on the secrets page, never showing its value", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Secrets" }).click();
    await page.getByRole("heading", { name: "Secrets", level: 1 }).waitFor();
    expect(await page.getByTestId("secret-usage").textContent()).toContain("{secret.NAME}");
    const form = page.getByRole("form", { name: "New secret" });
    // A name the server refuses: its reason at the name field, nothing stored.
    await form.getByLabel("Name").fill("1bad");
    await form.getByLabel("Value").fill(SECRET_VALUE);
    await form.getByRole("button", { name: "Store secret" }).click();
    await form.locator("[data-code=SECRET_NAME_INVALID]").waitFor();
    expect(await form.locator("[data-code=SECRET_NAME_INVALID]").textContent()).toContain("A name is a letter or _");
    await shot("secret-refused");
    await form.getByLabel("Name").fill("LOCAL_KEY");
    await form.getByRole("button", { name: "Store secret" }).click();
    const row = page.locator("tr[data-secret=LOCAL_KEY]");
    await row.waitFor();
    expect(await form.getByLabel("Value").inputValue()).toBe("");
    expect(await page.content()).not.toContain(SECRET_VALUE);
    await shot("secret-stored");
    // Replace: a new value under the same name.
    await row.getByRole("button", { name: "Replace value" }).click();
    const replace = page.getByRole("form", { name: "New value for LOCAL_KEY" });
    await replace.getByLabel("Value").fill(REPLACED_VALUE);
    await replace.getByRole("button", { name: "Replace" }).click();
    await page.getByRole("form", { name: "New secret" }).waitFor();
    const listed = await graphqlRequest<{ secrets: { name: string; createdAt: string; updatedAt: string }[] }>("{ secrets { name createdAt updatedAt } }");
    expect(listed.secrets.map((secret) => secret.name)).toEqual(["LOCAL_KEY"]);
    expect(Date.parse(listed.secrets[0]!.updatedAt)).toBeGreaterThan(Date.parse(listed.secrets[0]!.createdAt));
    expect(await page.content()).not.toContain(REPLACED_VALUE);
    // Delete, after the confirmation.
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await row.waitFor({ state: "detached" });
    await page.getByText("No secrets yet.").waitFor();
    expect((await graphqlRequest<{ secrets: unknown[] }>("{ secrets { name } }")).secrets).toEqual([]);
  });

  it("lists the configured endpoint's models with their prices, and the MCP servers, in the settings", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Settings" }).click();
    const card = page.getByRole("region", { name: "Providers and models" });
    await card.waitFor();
    await poll(() => card.locator("[data-price='local/small-1']").textContent()).toBe("$0.15 / $0.60");
    expect(await card.locator("[data-price='local/free-1']").textContent()).toBe("not priced: cost unknown");
    expect(await card.textContent()).toContain("Local test endpoint");
    const mcp = page.getByRole("region", { name: "MCP servers" });
    await poll(() => mcp.locator("[data-mcp-server=nowhere]").textContent()).toMatch(/MCP_UNAVAILABLE/);
    expect(await mcp.textContent()).toContain("http://127.0.0.1:9/mcp");
    await shot("settings-providers");
  });

  it("speaks Korean on the agent's run page, the secrets page and the settings with providers and MCP servers", async () => {
    await page.goto(`${stack.webUrl}/runs/${runId}`);
    await page.getByLabel("Language").selectOption("ko");
    await page.locator(".react-flow__node[data-id=caller]").click();
    await page.getByRole("region", { name: "에이전트 단계" }).waitFor();
    await poll(() => stepsPanel().locator(".agent-step").count()).toBe(2);
    const dataWords = new Set(["shout", "city", "agent", "with", "workflow", "tool", "caller", "q", "out", "gwangju", "seoul", "loud", "done", "shouting", "twice", "a"]);
    const leftovers: string[] = [];
    await shot("korean-run");
    leftovers.push(...(await englishLeftOnPage(page, dataWords)).map((word) => `run: ${word}`));
    await page.goto(`${stack.webUrl}/secrets`);
    await page.getByRole("heading", { name: "비밀 값", level: 1 }).waitFor();
    await shot("korean-secrets");
    leftovers.push(...(await englishLeftOnPage(page, dataWords)).map((word) => `secrets: ${word}`));
    await page.goto(`${stack.webUrl}/settings`);
    await page.getByRole("region", { name: "MCP 서버" }).locator("[data-mcp-server=nowhere]").waitFor();
    await shot("korean-settings");
    leftovers.push(...(await englishLeftOnPage(page, dataWords)).map((word) => `settings: ${word}`));
    await page.getByLabel("언어").selectOption("en");
    expect(leftovers).toEqual([]);
  });
});
