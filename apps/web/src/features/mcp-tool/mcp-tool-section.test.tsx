import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Client, fetchExchange, Provider } from "urql";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { ToastProvider } from "@/ui/toast";
import { McpToolCard, type McpToolCardProps } from "./mcp-tool-section";

// A transport error goes to a toast worded with the API endpoint (not provided here); the payload's
// refusals, which these tests are about, stay at the form.
vi.mock(import("@/ui/state-views"), async (original) => ({ ...(await original()), useDescribeError: () => () => "" }));

/** The network answers setWorkflowMcp with `payload`; everything above fetch (urql, the form) is real. */
function mockedApi(payload: unknown) {
  const requests: { operationName: string; variables: Record<string, unknown> }[] = [];
  const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    requests.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify({ data: { setWorkflowMcp: payload } }), { headers: { "content-type": "application/json" } });
  });
  const client = new Client({ url: "http://api.test/graphql", exchanges: [fetchExchange], fetch, preferGetMethod: false });
  return { client, requests };
}

const mcp = (fields: Partial<{ enabled: boolean; toolName: string | null; description: string | null }>) => ({
  __typename: "WorkflowMcpPayload",
  mcp: { __typename: "WorkflowMcp", enabled: true, toolName: null, description: null, ...fields },
  errors: [],
});

function show(client: Client, props: Partial<McpToolCardProps> = {}, language: "en" | "ko" = "en") {
  const onSaved = vi.fn();
  render(
    <Provider value={client}>
      <I18nProvider initialLanguage={language}>
        <ToastProvider>
          <McpToolCard workflowId="wf1" settings={{ enabled: false, toolName: null, description: null }} published authRequired endpointUrl="http://127.0.0.1:4000/mcp" onSaved={onSaved} {...props} />
        </ToastProvider>
      </I18nProvider>
    </Provider>,
  );
  return { onSaved, card: screen.getByTestId("mcp-tool") };
}

describe("serving a workflow as an MCP tool", () => {
  it("enables the tool with its name and description, sends empty fields as null and reports the saved settings", async () => {
    const api = mockedApi(mcp({ toolName: "answer_question", description: "Answers from the handbook." }));
    const { onSaved, card } = show(api.client);
    expect(within(card).getByTestId("mcp-state").textContent).toBe("Not offered at /mcp.");
    fireEvent.click(within(card).getByLabelText("Offer this workflow as a tool at /mcp"));
    fireEvent.change(within(card).getByLabelText(/^Tool name/), { target: { value: " answer_question " } });
    fireEvent.click(within(card).getByRole("button", { name: "Save MCP settings" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ enabled: true, toolName: "answer_question" })));
    expect(api.requests[0]?.operationName).toBe("SetWorkflowMcp");
    expect(api.requests[0]?.variables).toEqual({ workflowId: "wf1", input: { enabled: true, toolName: "answer_question", description: null } });
    expect(await screen.findByText("MCP settings saved")).toBeTruthy();
  });

  it("shows a taken name's refusal at the tool name field, in words and with the server's sentence", async () => {
    const api = mockedApi({ __typename: "WorkflowMcpPayload", mcp: null, errors: [{ __typename: "UserError", code: "MCP_TOOL_NAME_TAKEN", message: 'Another workflow is the tool "echo".', path: ["input", "toolName"] }] });
    const { onSaved, card } = show(api.client, { settings: { enabled: true, toolName: "mine", description: null } });
    fireEvent.change(within(card).getByLabelText(/^Tool name/), { target: { value: "echo" } });
    fireEvent.click(within(card).getByRole("button", { name: "Save MCP settings" }));
    const field = within(card).getByLabelText(/^Tool name/).closest("label") as HTMLElement;
    const refusal = await within(field).findByRole("alert");
    expect(refusal.dataset.code).toBe("MCP_TOOL_NAME_TAKEN");
    expect(refusal.textContent).toContain("Another workflow already has this name");
    expect(refusal.textContent).toContain('Another workflow is the tool "echo".');
    expect(within(card).getByLabelText(/^Tool name/).getAttribute("aria-invalid")).toBe("true");
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("shows a description over the limit at the description field", async () => {
    const api = mockedApi({ __typename: "WorkflowMcpPayload", mcp: null, errors: [{ __typename: "UserError", code: "LIMIT_EXCEEDED", message: "At most 2000 characters.", path: ["input", "description"] }] });
    const { card } = show(api.client, { settings: { enabled: true, toolName: "mine", description: null } });
    fireEvent.change(within(card).getByLabelText(/^Description for models/), { target: { value: "x".repeat(2001) } });
    fireEvent.click(within(card).getByRole("button", { name: "Save MCP settings" }));
    const field = within(card).getByLabelText(/^Description for models/).closest("label") as HTMLElement;
    expect((await within(field).findByRole("alert")).dataset.code).toBe("LIMIT_EXCEEDED");
  });

  it("says the tool is offered, and gives the endpoint and an mcp.json entry with a key placeholder", () => {
    const { card } = show(mockedApi(null).client, { settings: { enabled: true, toolName: "answer_question", description: null } });
    expect(within(card).getByTestId("mcp-state").textContent).toBe("Offered at /mcp as answer_question.");
    expect(within(card).queryByTestId("mcp-unpublished")).toBeNull();
    expect((within(card).getByTestId("mcp-endpoint") as HTMLInputElement).value).toBe("http://127.0.0.1:4000/mcp");
    expect(JSON.parse(within(card).getByTestId("mcp-config-json").textContent ?? "")).toEqual({
      mcpServers: { weft: { url: "http://127.0.0.1:4000/mcp", headers: { Authorization: "Bearer weft_…" } } },
    });
  });

  it("notes in Korean that an enabled workflow without a published version is not offered", () => {
    const { card } = show(mockedApi(null).client, { settings: { enabled: true, toolName: "answer_question", description: null }, published: false, authRequired: false }, "ko");
    expect(within(card).getByTestId("mcp-state").textContent).toBe("/mcp에서 제공하지 않습니다.");
    expect(within(card).getByTestId("mcp-unpublished").textContent).toContain("게시된 버전이 없습니다");
    expect(JSON.parse(within(card).getByTestId("mcp-config-json").textContent ?? "")).toEqual({ mcpServers: { weft: { url: "http://127.0.0.1:4000/mcp" } } });
    expect(within(card).getByRole("button", { name: "MCP 설정 저장" })).toBeTruthy();
  });

  it("copies the client configuration, and says so when the browser refuses", async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const { card } = show(mockedApi(null).client);
    fireEvent.click(within(card).getByTestId("copy-mcp-config"));
    await waitFor(() => expect(within(card).getByTestId("copy-mcp-config").textContent).toBe("Copied"));
    expect(JSON.parse(writeText.mock.calls[0]?.[0] ?? "")).toEqual({ mcpServers: { weft: { url: "http://127.0.0.1:4000/mcp", headers: { Authorization: "Bearer weft_…" } } } });
    writeText.mockRejectedValueOnce(new Error("denied"));
    fireEvent.click(within(card).getByTestId("copy-mcp-endpoint"));
    expect(await within(card).findByText("Copying failed; select the text and copy it yourself.")).toBeTruthy();
  });
});
