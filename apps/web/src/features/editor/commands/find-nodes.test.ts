import { describe, expect, it } from "vitest";
import type { WorkflowNode } from "@weft/engine";
import { findNodes } from "./find-nodes";

const nodes: WorkflowNode[] = [
  { id: "question", type: "input", content: "What is attention?" },
  { id: "judge", type: "grade", config: { criteria: "Is the answer grounded in the context?" } },
  { id: "grader-2", type: "template" },
];
const label = (type: string) => ({ grade: "Grade", input: "Input", template: "Template" })[type] ?? type;

describe("findNodes", () => {
  it("finds by id first, then by type or its label, then by text", () => {
    expect(findNodes(nodes, "grade", label).map((found) => [found.id, found.matched])).toEqual([
      ["grader-2", "id"],
      ["judge", "type"],
    ]);
    const byText = findNodes(nodes, "GROUNDED", label);
    expect(byText.map((found) => found.id)).toEqual(["judge"]);
    expect(byText[0]!.excerpt).toContain("grounded");
  });

  it("lists every node for an empty query", () => {
    expect(findNodes(nodes, "  ", label)).toHaveLength(3);
  });
});
