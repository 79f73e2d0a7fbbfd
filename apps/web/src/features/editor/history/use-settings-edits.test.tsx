import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "../../../i18n/i18n-provider";
import { ToastProvider } from "../../../ui/toast";
import type { WorkflowSettingsDraft } from "../panels/workflow-settings.type";
import type { PipelineSettings } from "../pipeline/pipeline-settings";
import { useEditHistory } from "./use-edit-history";
import { useSettingsEdits } from "./use-settings-edits";

const draft = (name: string): WorkflowSettingsDraft => ({ name, description: "", prompts: {}, outputFormat: "", knowledgeBase: null, intensity: "LOW" });

/**
 * The settings' savers as the editor has them, over an in-memory workflow that answers like the server:
 * what is saved is kept, and a bound above 100 is refused.
 */
function savedWorkflow() {
  const server = { workflow: draft("Answers"), pipeline: { loops: [{ id: "regen", max: 3, exit: "pass" }], state: {}, limits: {} } as PipelineSettings };
  const settings = {
    current: () => server.workflow,
    save: async (next: WorkflowSettingsDraft) => {
      server.workflow = next;
      return true;
    },
    restore: async (next: WorkflowSettingsDraft) => {
      server.workflow = next;
      return true;
    },
  };
  const pipeline = {
    current: () => server.pipeline,
    save: async (input: Partial<PipelineSettings>) => {
      if (input.loops?.some((loop) => (loop.max ?? 0) > 100)) return { ok: false as const, errors: [{ code: "LOOP_BOUND_INVALID", message: "1..100", field: "loops[0].max", nodeIds: [], edgeIds: [], path: null, position: null, bodyPath: null }] };
      server.pipeline = { ...server.pipeline, ...input };
      return { ok: true as const };
    },
  };
  return { server, settings, pipeline };
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <I18nProvider>
    <ToastProvider>{children}</ToastProvider>
  </I18nProvider>
);

function renderEditor() {
  const workflow = savedWorkflow();
  const hook = renderHook(
    () => {
      let edits: ReturnType<typeof useSettingsEdits> | null = null;
      const history = useEditHistory((operation) => (operation.kind === "settings" && edits ? edits.apply(operation.state) : Promise.resolve(false)));
      edits = useSettingsEdits({ settings: workflow.settings, pipeline: workflow.pipeline, record: history.record });
      return { history, edits };
    },
    { wrapper },
  );
  return { workflow, hook };
}

describe("workflow settings in the undo history", () => {
  it("undoes and redoes a save of the settings panel through the settings' own save", async () => {
    const { workflow, hook } = renderEditor();
    await act(() => hook.result.current.edits.saveWorkflow(draft("Better answers")));
    expect(workflow.server.workflow.name).toBe("Better answers");
    expect(hook.result.current.history.undoLabel).toBe("save the workflow settings");
    await act(() => hook.result.current.history.undo());
    expect(workflow.server.workflow.name).toBe("Answers");
    expect(hook.result.current.history.redoLabel).toBe("save the workflow settings");
    await act(() => hook.result.current.history.redo());
    expect(workflow.server.workflow.name).toBe("Better answers");
  });

  it("undoes a loop's new bound, leaving the state channels and limits as they are", async () => {
    const { workflow, hook } = renderEditor();
    await act(() => hook.result.current.edits.savePipeline({ limits: { maxInvocations: 40 } }));
    await act(() => hook.result.current.edits.savePipeline({ loops: [{ id: "regen", max: 5, exit: "pass" }] }));
    await act(() => hook.result.current.history.undo());
    expect(workflow.server.pipeline.loops).toEqual([{ id: "regen", max: 3, exit: "pass" }]);
    expect(workflow.server.pipeline.limits).toEqual({ maxInvocations: 40 });
    await act(() => hook.result.current.history.undo());
    expect(workflow.server.pipeline.limits).toEqual({});
    expect(hook.result.current.history.undoLabel).toBeNull();
  });

  it("records nothing for a save the server refused", async () => {
    const { workflow, hook } = renderEditor();
    const outcome = await act(() => hook.result.current.edits.savePipeline({ loops: [{ id: "regen", max: 500, exit: "pass" }] }));
    expect(outcome.ok).toBe(false);
    expect(workflow.server.pipeline.loops[0]!.max).toBe(3);
    expect(hook.result.current.history.undoLabel).toBeNull();
  });
});
