"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { codeWords, useFormErrors, type ShownUserError } from "@/ui/user-errors";
import { SetWorkflowMcpMutation } from "./mcp-tool.operations";

export interface McpSettings {
  enabled: boolean;
  toolName?: string | null;
  description?: string | null;
}

const FIELDS = ["toolName", "description"] as const;
type Field = (typeof FIELDS)[number];

/** Which field a refusal is about, from its path (`["input", "toolName"]`); null: the form as a whole. */
function fieldOf(error: ShownUserError): Field | null {
  const name = error.path?.[1];
  return (FIELDS as readonly string[]).includes(name ?? "") ? (name as Field) : null;
}

function ErrorText({ errors }: { errors: readonly ShownUserError[] }) {
  const t = useT();
  return errors.map((error, index) => (
    <p key={index} className="field__error" role="alert" data-code={error.code}>
      {codeWords(t, "mcpTool.code.", error.code) ?? error.code}{" "}
      <span translate="no">{error.message}</span>
    </p>
  ));
}

/**
 * setWorkflowMcp's form: the toggle, the tool name and the description. Empty fields are sent as null,
 * which the API reads as "keep the name" / "use the workflow's description". Refusals stay at their field.
 */
export function McpToolForm({ workflowId, settings, onSaved }: { workflowId: string; settings: McpSettings; onSaved: (saved: McpSettings) => void }) {
  const t = useT();
  const toast = useToast();
  const [enabled, setEnabled] = useState(settings.enabled);
  const [toolName, setToolName] = useState(settings.toolName ?? "");
  const [description, setDescription] = useState(settings.description ?? "");
  const { errors, settle } = useFormErrors("mcpTool.failed");
  const [state, save] = useMutation(SetWorkflowMcpMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { enabled, toolName: toolName.trim() || null, description: description.trim() || null };
    const result = await save({ workflowId, input });
    const saved = result.data?.setWorkflowMcp.mcp;
    if (!settle(result.error, result.data?.setWorkflowMcp.errors) || !saved) return;
    setToolName(saved.toolName ?? "");
    setDescription(saved.description ?? "");
    toast.show({ tone: "success", message: t("mcpTool.saved") });
    onSaved(saved);
  }

  const at = (field: Field | null) => errors.filter((error) => fieldOf(error) === field);
  return (
    <form aria-label={t("mcpTool.title")} onSubmit={(event) => void submit(event)} data-testid="mcp-tool-form">
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} data-testid="mcp-enabled" />
        {t("mcpTool.enabled")}
      </label>
      <label className="field">
        <span>{t("mcpTool.toolName")}</span>
        <input type="text" className="mono" value={toolName} onChange={(event) => setToolName(event.target.value)} aria-invalid={at("toolName").length > 0 || undefined} data-testid="mcp-tool-name" />
        <span className="hint">{t("mcpTool.toolNameHelp")}</span>
        <ErrorText errors={at("toolName")} />
      </label>
      <label className="field">
        <span>{t("mcpTool.description")}</span>
        <textarea rows={3} value={description} onChange={(event) => setDescription(event.target.value)} aria-invalid={at("description").length > 0 || undefined} data-testid="mcp-description" />
        <span className="hint">{t("mcpTool.descriptionHelp")}</span>
        <ErrorText errors={at("description")} />
      </label>
      <ErrorText errors={at(null)} />
      <Button type="submit" variant="primary" busy={state.fetching}>
        {t("mcpTool.save")}
      </Button>
    </form>
  );
}
