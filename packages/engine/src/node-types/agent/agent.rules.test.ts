import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import { checkNodeConfig } from "../../document/node-config.check.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";

/** q ─► research (agent) ─► out */
const withAgent = (config: Record<string, JsonValue>) =>
  pipeline().input("q").model("research", "agent", ["done"], config).output("out").edges("q>research", "research>out").build();

const configIssues = (config: Record<string, JsonValue>) => checkNodeConfig(withAgent(config).nodes[1]!, { registry: builtInRegistry }).map((issue) => issue.path);

describe("the agent node's rules (SPEC-V3 §3)", () => {
  it("accepts tools of every kind and maxSteps from 1 to 50", () => {
    const tools: JsonValue[] = [{ type: "workflow", workflowId: "wf_1", version: 2, name: "summarize" }, { type: "mcp", server: "github" }, { type: "mcp", server: "maps", tool: "geocode" }, { type: "retrieve", knowledgeBase: "docs", topK: 4 }];
    expect(validateWorkflow(withAgent({ tools, maxSteps: 50 }), { registry: builtInRegistry })).toEqual([]);
    expect(configIssues({ tools, maxSteps: 1 })).toEqual([]);
  });

  it("refuses maxSteps outside 1..50, an unknown tool type and a tool name models refuse", () => {
    expect(configIssues({ maxSteps: 0 })).toEqual(["maxSteps"]);
    expect(configIssues({ maxSteps: 51 })).toEqual(["maxSteps"]);
    expect(configIssues({ tools: [{ type: "shell", command: "rm" }] })).toEqual(["tools[0].type"]);
    expect(configIssues({ tools: [{ type: "workflow", workflowId: "wf", name: "sum up" }] })).toEqual(["tools[0].name"]);
  });

  it("refuses two tools the model could not tell apart, naming the second", () => {
    const tools: JsonValue[] = [{ type: "retrieve", knowledgeBase: "docs" }, { type: "workflow", workflowId: "wf", name: "search_docs" }];
    expect(validateWorkflow(withAgent({ tools }), { registry: builtInRegistry })).toEqual([
      expect.objectContaining({ code: "TOOL_NAME_DUPLICATE", nodeIds: ["research"], field: "tools[1].name" }),
    ]);
  });
});
