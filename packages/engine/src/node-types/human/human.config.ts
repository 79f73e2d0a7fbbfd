import { z } from "zod";
import type { JsonValue } from "../../model/json-value.js";
import type { HumanAction } from "../../model/human-task.js";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../model/workflow-document.limits.js";
import type { WorkflowNode } from "../../model/workflow.js";
import { kind, nodeConfig, templateText } from "../../registry/node-config.schema.js";
import { boundedJsonSchema } from "../common/json-schema-field.js";

/** The actions a `human` node offers when it names none (SPEC-V3 §2). */
export const DEFAULT_HUMAN_ACTIONS: readonly HumanAction[] = Object.freeze([
  { id: "approve", label: "Approve" },
  { id: "reject", label: "Reject" },
]);

/** Bounds of a `human` node's fields: a task waits at most a year, labels and assignees are short texts. */
export const HUMAN_LIMITS = Object.freeze({
  maxTimeoutSeconds: 366 * 24 * 3600,
  maxLabelLength: 200,
  maxAssigneeLength: LIMITS.maxNameLength,
});

/**
 * The fields' shapes and sizes. What the rules decide — action ids that are valid, distinct ports, an
 * `onTimeout` that names one of them, a form that is a usable object schema — is left to
 * human.rules.ts, so each is refused with its own code and field, not as a malformed document.
 */
export const humanConfig = nodeConfig({
  title: templateText.optional().meta(kind("template", "Title of the task, with placeholders ({input}, {state.<channel>}, {item}, …); default: the node id.")),
  instructions: templateText.optional().meta(kind("template", "What the person should do (Markdown), with placeholders.")),
  actions: z
    .array(
      z.strictObject({
        id: z.string().max(LIMITS.maxIdLength).meta({ description: "The action's id: the output port taken when a person chooses it." }),
        label: z.string().max(HUMAN_LIMITS.maxLabelLength).optional().meta({ description: "The button's text; default: the id." }),
      }),
    )
    .min(1, "must hold at least one action")
    .max(LIMITS.maxPorts, `must hold at most ${LIMITS.maxPorts} actions`)
    .optional()
    .meta({ description: "The decisions offered; each id is an output port. Default: approve and reject." }),
  form: boundedJsonSchema.optional().meta(kind("jsonSchema", "JSON Schema (an object) of the data the person submits.")),
  editable: z
    .boolean()
    .optional()
    .meta({ description: "The form starts from the node's input, and the data submitted replaces it downstream.", default: false }),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(HUMAN_LIMITS.maxTimeoutSeconds)
    .optional()
    .meta({ description: "After this many seconds the task expires and the node takes onTimeout." }),
  onTimeout: z
    .string()
    .max(LIMITS.maxIdLength)
    .nullable()
    .optional()
    .meta({ description: "The action taken when the task expires; null (the default) fails the node with HUMAN_TIMEOUT." }),
  assignee: z.string().max(HUMAN_LIMITS.maxAssigneeLength).optional().meta({ description: "Who should act (a person or a role), shown in the inbox." }),
});

/** A `human` node's settings with the defaults applied. The rules have checked the config before any run. */
export interface HumanSettings {
  title: string | null;
  instructions: string;
  actions: HumanAction[];
  form: JsonValue | null;
  editable: boolean;
  timeoutSeconds: number | null;
  onTimeout: string | null;
  assignee: string | null;
}

export function humanSettings(node: WorkflowNode): HumanSettings {
  const config = node.config ?? {};
  const text = (key: string) => (typeof config[key] === "string" ? (config[key] as string) : null);
  return {
    title: text("title"),
    instructions: text("instructions") ?? "",
    actions: humanActions(node),
    form: config["form"] ?? null,
    editable: config["editable"] === true,
    timeoutSeconds: typeof config["timeoutSeconds"] === "number" ? config["timeoutSeconds"] : null,
    onTimeout: text("onTimeout"),
    assignee: text("assignee"),
  };
}

/** The node's actions (its ports), tolerating a config the rules have not yet accepted. */
export function humanActions(node: WorkflowNode): HumanAction[] {
  const actions = node.config?.["actions"];
  if (!Array.isArray(actions)) return DEFAULT_HUMAN_ACTIONS.map((action) => ({ ...action }));
  return actions.flatMap((entry) => {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry) || typeof entry["id"] !== "string") return [];
    return [typeof entry["label"] === "string" ? { id: entry["id"], label: entry["label"] } : { id: entry["id"] }];
  });
}
