import { z } from "zod";
import { httpRequestSettings } from "../../../http/http-request.schema.js";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../../model/workflow-document.limits.js";
import { kind } from "../../../registry/node-config.schema.js";
import { jsonSchemaField } from "../json-schema-field.js";

/** Bounds of tool lists: what one node may declare, and what one agent may offer the model (OpenAI takes 128). */
export const TOOL_LIMITS = Object.freeze({
  maxToolsPerNode: 32,
  maxOfferedTools: 128,
  maxDescriptionLength: 2_000,
  /** An MCP tool's input schema, as JSON. */
  maxSchemaBytes: 64 * 1024,
  maxTopK: 50,
  /** Tool calls of one model reply that are executed; the ones after are answered with TOOL_CALLS_LIMIT. */
  maxCallsPerStep: 16,
});

const toolName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-" (what model APIs accept as a tool name)');
const description = z.string().max(TOOL_LIMITS.maxDescriptionLength);
const id = z.string().min(1, "must not be empty").max(LIMITS.maxIdLength);

/** A published workflow as a tool: its input nodes are the parameters; it runs as a child run. */
export const workflowToolSpec = z.strictObject({
  type: z.literal("workflow"),
  workflowId: id.meta({ description: "The workflow's id." }),
  version: z.int().min(1).optional().meta({ description: "The published version to run; default: the latest published one when the tool is called." }),
  name: toolName.optional().meta({ description: "The name the model sees; default: the workflow's MCP tool name, else made from its name." }),
  description: description.optional().meta({ description: "What the model reads about the tool; default: the workflow's." }),
});

/** One tool of an MCP server the operator configured, or all of them. */
export const mcpToolSpec = z.strictObject({
  type: z.literal("mcp"),
  server: id.meta({ description: "The server's name in WEFT_PROVIDERS_FILE (mcp)." }),
  tool: z.string().min(1).max(LIMITS.maxIdLength).optional().meta({ description: "One of its tools; default: all of them." }),
});

/** A knowledge base searched with the model's query. */
export const retrieveToolSpec = z.strictObject({
  type: z.literal("retrieve"),
  knowledgeBase: id.meta({ description: "The knowledge base (by name)." }),
  topK: z.int().min(1).max(TOOL_LIMITS.maxTopK).optional().meta({ description: "Passages returned; default: the run's top_k." }),
});

/** The arguments of a tool are always an object: model APIs take nothing else as a function's parameters. */
const objectSchema = jsonSchemaField.superRefine((schema, context) => {
  const type = schema !== null && typeof schema === "object" && !Array.isArray(schema) ? (schema as Record<string, unknown>)["type"] : null;
  if (type !== "object") context.addIssue({ code: "custom", message: 'must be an object schema ({"type": "object", "properties": …})' });
});

/** An HTTP request as a tool (SPEC-V3 §3): an http node's settings, whose templates see the call's arguments as {args.<name>}. */
export const httpToolSpec = z.strictObject({
  type: z.literal("http"),
  name: toolName.meta({ description: "The name the model sees." }),
  description: description.meta({ description: "What the model reads about the tool: what it does and when to call it." }),
  parameters: objectSchema.meta(kind("jsonSchema", "The arguments, as a JSON Schema of an object; the request's templates see them as {args.<name>}.")),
  request: httpRequestSettings.meta({ description: "The request: an http node's settings (method, url, headers, body, json, timeoutMs, maxResponseBytes)." }),
});

export const toolSpec = z.discriminatedUnion("type", [workflowToolSpec, mcpToolSpec, retrieveToolSpec, httpToolSpec]);

export type WorkflowToolSpec = z.infer<typeof workflowToolSpec>;
export type McpToolSpec = z.infer<typeof mcpToolSpec>;
export type RetrieveToolSpec = z.infer<typeof retrieveToolSpec>;
export type HttpToolSpec = z.infer<typeof httpToolSpec>;
export type ToolSpec = z.infer<typeof toolSpec>;
