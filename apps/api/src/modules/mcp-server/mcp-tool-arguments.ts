import type { WorkflowToolParameters } from "../run/index.js";

export type ToolArguments = { ok: true; value: { nodeId: string; content: string }[] } | { ok: false; message: string };

/**
 * A tools/call's arguments checked against the tool's input schema (what tools/list said): an object
 * whose keys are the workflow's input nodes, each a string, the required ones present. Content sizes
 * are the run request's to check (LIMIT_EXCEEDED), as for any run.
 */
export function readToolArguments(args: unknown, parameters: WorkflowToolParameters): ToolArguments {
  const given = args ?? {};
  if (typeof given !== "object" || Array.isArray(given)) return { ok: false, message: "arguments must be an object of input contents by input node id" };
  const entries = Object.entries(given as Record<string, unknown>);
  const unknown = entries.map(([name]) => name).filter((name) => !Object.hasOwn(parameters.properties, name));
  if (unknown.length > 0) {
    return { ok: false, message: `unknown argument ${quoted(unknown)}; the parameters are ${quoted(Object.keys(parameters.properties)) || "none"}` };
  }
  const notText = entries.filter(([, value]) => typeof value !== "string").map(([name]) => name);
  if (notText.length > 0) return { ok: false, message: `argument ${quoted(notText)} must be a string` };
  const missing = parameters.required.filter((name) => !Object.hasOwn(given, name));
  if (missing.length > 0) return { ok: false, message: `missing required argument ${quoted(missing)}` };
  return { ok: true, value: entries.map(([nodeId, content]) => ({ nodeId, content: content as string })) };
}

function quoted(names: string[]): string {
  const shown = names.slice(0, 10).map((name) => `"${name.slice(0, 80)}"`);
  return names.length > 10 ? `${shown.join(", ")} and ${names.length - 10} more` : shown.join(", ");
}
