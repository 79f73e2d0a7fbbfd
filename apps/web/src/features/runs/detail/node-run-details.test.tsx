import { render, screen } from "@testing-library/react";
import { emptyNode } from "../live/live-state";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { NodeRunDetails, type NodeRunView } from "./node-run-details";

const record = (overrides: Partial<NodeRunView> = {}): NodeRunView => ({
  nodeId: "gen",
  nodeType: "generation",
  status: "COMPLETED",
  inputs: ["What is twill?"],
  renderedPrompt: "Answer using the context.\nTwill makes diagonal ribs.",
  context: [
    { id: "c1", text: "Twill makes diagonal ribs.", score: 0.8731, source: { documentId: "d1", title: "Weaving guide", chunkIndex: 2 } },
    { bogus: true },
  ],
  store: "pgvector",
  rawReply: '{"description":"explained","output":"Twill is diagonal."}',
  description: "explained",
  output: "Twill is diagonal.",
  error: null,
  provider: "offline",
  model: "echo",
  promptTokens: 12,
  completionTokens: 5,
  totalTokens: 17,
  retries: 1,
  durationMs: 42,
  ...overrides,
});

function renderDetails(props: Parameters<typeof NodeRunDetails>[0]) {
  return render(
    <I18nProvider>
      <NodeRunDetails {...props} />
    </I18nProvider>,
  );
}

describe("node run details", () => {
  it("shows the prompt, the context with source and score, the raw reply and the tokens", () => {
    renderDetails({ nodeId: "gen", nodeType: "generation", record: record(), live: null });
    expect(screen.getByText(/Answer using the context/)).toBeTruthy();
    expect(screen.getByText("Weaving guide #2")).toBeTruthy();
    expect(screen.getByText("score 0.873")).toBeTruthy();
    expect(screen.getByText('{"description":"explained","output":"Twill is diagonal."}')).toBeTruthy();
    expect(screen.getByText("17 (12 prompt + 5 completion)")).toBeTruthy();
    expect(screen.getByText("offline / echo")).toBeTruthy();
    expect(screen.getByText("Retrieved context · pgvector")).toBeTruthy();
  });

  it("shows a failed node's error and falls back to live state before the record is stored", () => {
    renderDetails({
      nodeId: "val",
      nodeType: "validation",
      record: null,
      live: {
        ...emptyNode(),
        status: "FAILED",
        description: null,
        tokens: "partial repl",
        output: null,
        error: { code: "PARSE_ERROR", message: "no JSON object in the reply" },
        startedAt: null,
        finishedAt: null,
      },
    });
    expect(screen.getByText("PARSE_ERROR: no JSON object in the reply")).toBeTruthy();
    expect(screen.getByText("Failed")).toBeTruthy();
    expect(screen.getByText("partial repl")).toBeTruthy();
    expect(screen.getByText("No knowledge-base context.")).toBeTruthy();
  });
});
