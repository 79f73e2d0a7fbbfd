"use client";

import Form from "@rjsf/core";
import { toErrorSchema, type ErrorSchema, type RJSFSchema, type RJSFValidationError } from "@rjsf/utils";
import { useState } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useReportOutcome } from "@/ui/user-errors";
import { CompleteHumanTaskMutation } from "./inbox.operations";
import { rjsfErrors, taskFormValidator } from "./task-form-validator";

export interface AnswerableTask {
  id: string;
  actions: readonly { id: string; label?: string | null }[];
  form?: unknown;
  input?: unknown;
  editable: boolean;
}

/** rjsf draws the fields; the task's actions are the buttons, so its own submit button is not drawn. */
const UI_SCHEMA = { "ui:submitButtonOptions": { norender: true } };

/**
 * Completes an open task: its form drawn from its JSON Schema (starting from the node's input when the
 * task is editable), or the input as JSON to edit when it is editable without a form; a comment; one
 * button per action. The data is checked with the API's own check before it is sent; what the API
 * refuses with a path (HUMAN_INPUT_INVALID) is shown at that field.
 */
export function TaskAnswer({ task, onCompleted }: { task: AnswerableTask; onCompleted: () => void }) {
  const t = useT();
  const report = useReportOutcome();
  const [, complete] = useMutation(CompleteHumanTaskMutation);
  const form = isSchema(task.form) ? task.form : null;
  const [formData, setFormData] = useState<unknown>(task.editable ? task.input : undefined);
  const [jsonText, setJsonText] = useState(() => JSON.stringify(task.input ?? null, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [comment, setComment] = useState("");
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>(undefined);
  const [busy, setBusy] = useState<string | null>(null);

  /** The data to send, or undefined when it must be corrected first (its errors are shown). */
  function dataToSend(): { data: unknown } | undefined {
    if (form) {
      const errors = rjsfErrors(form, formData ?? {});
      setFieldErrors(errors.length > 0 ? (toErrorSchema(errors) as ErrorSchema) : undefined);
      return errors.length > 0 ? undefined : { data: formData ?? {} };
    }
    if (!task.editable) return { data: null };
    try {
      const parsed: unknown = JSON.parse(jsonText);
      setJsonError(null);
      return { data: parsed };
    } catch (error) {
      setJsonError(t("inbox.task.dataJsonInvalid", { message: error instanceof Error ? error.message : String(error) }));
      return undefined;
    }
  }

  async function decide(action: string) {
    const checked = dataToSend();
    if (!checked) return;
    setBusy(action);
    const response = await complete({ id: task.id, input: { action, data: checked.data, comment: comment.trim() === "" ? null : comment } });
    setBusy(null);
    const errors = response.data?.completeHumanTask.errors ?? [];
    const atFields = errors.filter((error) => error.code === "HUMAN_INPUT_INVALID" && error.path?.[1] === "data");
    if (atFields.length > 0) setFieldErrors(toErrorSchema(atFields.map(toFieldError)) as ErrorSchema);
    if (report(t("inbox.task.completeFailed"), { error: response.error, errors })) onCompleted();
  }

  return (
    <section className="task-card task-answer" aria-label={t("inbox.task.actions")}>
      {form ? (
        <Form
          schema={form}
          uiSchema={UI_SCHEMA}
          validator={taskFormValidator}
          formData={formData}
          onChange={(event) => setFormData(event.formData)}
          extraErrors={fieldErrors}
          showErrorList={false}
          noHtml5Validate
        />
      ) : task.editable ? (
        <label className={`field${jsonError ? " field--invalid" : ""}`}>
          <span>{t("inbox.task.dataJson")}</span>
          <textarea rows={8} value={jsonText} onChange={(event) => setJsonText(event.target.value)} spellCheck={false} />
          {jsonError ? <span className="field__error">{jsonError}</span> : null}
        </label>
      ) : null}
      <label className="field">
        <span>{t("inbox.task.comment")}</span>
        <textarea rows={3} value={comment} maxLength={10_000} onChange={(event) => setComment(event.target.value)} />
      </label>
      <div className="task-answer__actions">
        {task.actions.map((action, index) => (
          <Button key={action.id} variant={index === 0 ? "primary" : "secondary"} busy={busy === action.id} disabled={busy !== null} onClick={() => void decide(action.id)}>
            {action.label ?? action.id}
          </Button>
        ))}
      </div>
    </section>
  );
}

function isSchema(value: unknown): value is RJSFSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A refusal's path (["input", "data", "score"]) as the field rjsf shows it at. */
function toFieldError(error: { message: string; path?: readonly string[] | null }): RJSFValidationError {
  const property = `.${(error.path ?? []).slice(2).join(".")}`;
  return { property, message: error.message, stack: `${property} ${error.message}` };
}
