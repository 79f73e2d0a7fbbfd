"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import type { TriggerFieldsFragment } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useReportOutcome } from "@/ui/user-errors";
import { InputMappingsEditor, inputsToMappings, mappingsToInputs } from "./input-mappings-editor";
import { SetTriggerInputsMutation } from "./triggers.operations";

/** Edits an existing trigger's mapping of every input node; saved with updateTrigger(inputs). */
export function TriggerMappingsForm({ trigger, inputNodeIds, onDone }: { trigger: TriggerFieldsFragment; inputNodeIds: readonly string[]; onDone: () => void }) {
  const t = useT();
  const report = useReportOutcome();
  const [mappings, setMappings] = useState(() => inputsToMappings(trigger.inputs));
  const [saving, setInputs] = useMutation(SetTriggerInputsMutation);
  // Mapped nodes the workflow no longer has are listed too, so they can be cleared.
  const nodeIds = [...inputNodeIds, ...trigger.inputs.map((input) => input.nodeId).filter((nodeId) => !inputNodeIds.includes(nodeId))];

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = await setInputs({ id: trigger.id, inputs: mappingsToInputs(nodeIds, mappings) });
    if (report(t("triggers.action.failed"), { error: result.error, errors: result.data?.updateTrigger.errors })) onDone();
  }

  return (
    <form className="form-grid" onSubmit={(event) => void save(event)} aria-label={t("triggers.mappings.edit")}>
      <InputMappingsEditor kind={trigger.kind} inputNodeIds={inputNodeIds} mappings={mappings} onChange={setMappings} />
      <div className="row">
        <Button type="submit" size="sm" variant="primary" busy={saving.fetching} data-testid="save-mappings">{t("triggers.mappings.save")}</Button>
        <Button size="sm" onClick={onDone}>{t("triggers.mappings.cancel")}</Button>
      </div>
    </form>
  );
}
