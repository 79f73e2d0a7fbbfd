import { describe, expect, it } from "vitest";
import { checkWorkflowSettings } from "./workflow-settings.check.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

const codesAndPaths = (settings: Parameters<typeof checkWorkflowSettings>[0]) =>
  checkWorkflowSettings(settings, { registry: builtInRegistry }).map((issue) => [issue.code, issue.path]);

describe("checking workflow settings as the document parser does", () => {
  it("accepts loops, state channels and limits a v2 document may hold", () => {
    expect(
      checkWorkflowSettings({
        loops: [{ id: "regen", max: 3, exit: "pass" }, { id: "outer", exit: null }],
        state: { answers: { reducer: "append" }, seen: { reducer: "appendUnique", key: "id", scope: "thread" } },
        limits: { maxInvocations: 500 },
      }, { registry: builtInRegistry }),
    ).toEqual([]);
  });

  it("leaves a loop's bound to the rule checker, so a half-built loop can be stored", () => {
    expect(checkWorkflowSettings({ loops: [{ id: "regen", exit: null }, { id: "wide", max: 1000, exit: null }] }, { registry: builtInRegistry })).toEqual([]);
  });

  it("reports a repeated loop id at the second loop", () => {
    expect(codesAndPaths({ loops: [{ id: "regen", max: 2, exit: null }, { id: "regen", max: 3, exit: null }] })).toEqual([
      ["DUPLICATE_LOOP_ID", "loops[1].id"],
    ]);
  });

  it("reports channel names that are not identifiers, empty ids and limits out of range, each at its path", () => {
    expect(
      codesAndPaths({
        loops: [{ id: "", max: 2, exit: null }],
        state: { "not a name": { reducer: "replace" } },
        limits: { maxInvocations: 0 },
      }),
    ).toEqual([
      ["FIELD_INVALID", 'state["not a name"]'],
      ["FIELD_INVALID", "limits.maxInvocations"],
      ["FIELD_INVALID", "loops[0].id"],
    ]);
  });

  it("refuses more channels than the document limit allows", () => {
    const state = Object.fromEntries(Array.from({ length: 65 }, (_, k) => [`c${k}`, { reducer: "replace" as const }]));
    expect(codesAndPaths({ state })).toEqual([["FIELD_INVALID", "state"]]);
  });
});
