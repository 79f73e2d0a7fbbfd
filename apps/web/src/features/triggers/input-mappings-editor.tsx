"use client";

import { useT } from "@/i18n/i18n-provider";

/** Each input node's CEL mapping by node id; an empty one leaves the node unmapped (its stored content is used). */
export type InputMappings = Record<string, string>;

/** The mappings as the API takes them: the non-empty ones, in the workflow's input order. */
export function mappingsToInputs(inputNodeIds: readonly string[], mappings: InputMappings): { nodeId: string; from: string }[] {
  return inputNodeIds.flatMap((nodeId) => {
    const from = (mappings[nodeId] ?? "").trim();
    return from === "" ? [] : [{ nodeId, from }];
  });
}

/** A trigger's stored mappings by node id (a mapping for a node the workflow no longer has is kept, and shown). */
export function inputsToMappings(inputs: readonly { nodeId: string; from: string }[]): InputMappings {
  return Object.fromEntries(inputs.map((input) => [input.nodeId, input.from]));
}

/** One CEL field per input node of the workflow (and per mapped node it no longer has). */
export function InputMappingsEditor({ kind, inputNodeIds, mappings, onChange }: {
  kind: "WEBHOOK" | "SCHEDULE";
  inputNodeIds: readonly string[];
  mappings: InputMappings;
  onChange: (next: InputMappings) => void;
}) {
  const t = useT();
  const nodeIds = [...inputNodeIds, ...Object.keys(mappings).filter((nodeId) => !inputNodeIds.includes(nodeId))];
  return (
    <fieldset className="field" data-testid="input-mappings">
      <legend>{t(kind === "WEBHOOK" ? "triggers.field.fromWebhook" : "triggers.field.fromSchedule")}</legend>
      <p className="hint">{t("triggers.mappings.help")}</p>
      {nodeIds.length === 0 ? <p className="muted">{t("triggers.mappings.noInputNodes")}</p> : null}
      {nodeIds.map((nodeId) => (
        <label className="field" key={nodeId}>
          <span className="mono" translate="no">{nodeId}</span>
          <input
            className="mono"
            value={mappings[nodeId] ?? ""}
            placeholder={t("triggers.mappings.unmapped")}
            onChange={(event) => onChange({ ...mappings, [nodeId]: event.target.value })}
            data-testid={`mapping-${nodeId}`}
          />
        </label>
      ))}
    </fieldset>
  );
}
