"use client";

import { useState } from "react";
import { useMutation, useQuery } from "urql";
import type { MessageKey } from "../../i18n/dictionary.type";
import { useI18n } from "../../i18n/i18n-provider";
import { en } from "../../i18n/en/index";
import { Button } from "../../ui/button";
import { LoadingState, QueryError } from "../../ui/state-views";
import { useToast } from "../../ui/toast";
import { useReportOutcome } from "../../ui/user-errors";
import { CreateFromTemplateMutation, WorkflowTemplatesQuery } from "./workflows.operations";

/** A template's name or line in the UI's language when the dictionary has one, else the server's. */
function useTemplateText(): (id: string, part: "name" | "description", fallback: string) => string {
  const { t } = useI18n();
  return (id, part, fallback) => {
    const key = `${id}.${part}`;
    return key in en.templates ? t(`templates.${key}` as MessageKey) : fallback;
  };
}

/**
 * "New workflow from template": the demo and the seed pipelines, each created in one click with the
 * knowledge bases it searches, so it runs offline at once.
 */
export function TemplatePicker({ onCreated, onClose }: { onCreated: (id: string) => void; onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const report = useReportOutcome();
  const text = useTemplateText();
  const [{ data, error, fetching }, reload] = useQuery({ query: WorkflowTemplatesQuery, requestPolicy: "cache-first" });
  const [creating, setCreating] = useState<string | null>(null);
  const [, create] = useMutation(CreateFromTemplateMutation);

  async function createFrom(templateId: string) {
    setCreating(templateId);
    const result = await create({ templateId });
    setCreating(null);
    const payload = result.data?.createWorkflowFromTemplate;
    if (!report(t("workflows.failed"), { error: result.error, errors: payload?.errors }) || !payload?.workflow) return;
    toast.show({ tone: "success", message: t("workflows.create.done", { name: payload.workflow.name }) });
    onCreated(payload.workflow.id);
  }

  return (
    <section className="card templates" aria-label={t("workflows.templates.title")} data-testid="template-picker">
      <div className="row row--spread">
        <h2>{t("workflows.templates.title")}</h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t("common.action.cancel")}
        </Button>
      </div>
      <p className="hint">{t("workflows.templates.help")}</p>
      {error && !data ? <QueryError error={error} onRetry={() => reload({ requestPolicy: "network-only" })} /> : null}
      {!data && fetching ? <LoadingState /> : null}
      <ul className="templates__list">
        {data?.workflowTemplates.map((template) => (
          <li key={template.id} className="templates__item" data-template={template.id}>
            <div>
              <strong>{text(template.id, "name", template.name)}</strong>
              <p>{text(template.id, "description", template.description)}</p>
              <p className="muted">
                {t("workflows.templates.facts", { nodes: template.nodeCount })}
                {template.knowledgeBases.length > 0 ? ` · ${t("workflows.templates.knowledgeBases", { names: template.knowledgeBases.join(", ") })}` : ""}
              </p>
            </div>
            <Button variant="primary" busy={creating === template.id} disabled={creating !== null} onClick={() => void createFrom(template.id)}>
              {creating === template.id ? t("workflows.templates.creating") : t("workflows.templates.create")}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
