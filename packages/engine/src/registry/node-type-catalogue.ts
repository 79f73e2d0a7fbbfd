import type { JsonValue } from "../model/json-value.js";
import { z } from "zod";
import { DEFAULT_PORT, SEED_NODE_TYPES } from "../model/workflow.js";
import { seedNodeConfig } from "./node-config.schema.js";
import type { NodeTypeRegistry } from "./node-type-registry.js";
import type { Bounds, NodeTypeDefinition } from "./node-type-definition.js";

/** A node type as data, for the API's `nodeTypes` and the editor's palette and forms. */
export interface NodeTypeDescription {
  type: string;
  label: string;
  component: NodeTypeDefinition["component"];
  description: string;
  profile: "seed" | "pipeline";
  accepts: string[];
  feeds: string[];
  /** `max: null` for unbounded. */
  inDegree: { min: number; max: number | null };
  outDegree: { min: number; max: number | null };
  count: { min: number; max: number | null } | null;
  usesModel: boolean;
  /** The node attributes the type takes besides its config: some of content, provider, model, params, prompt. */
  attributes: string[];
  /** The ports every node of the type has; a router's config may add more (see `portsField`). */
  ports: string[];
  /** The config field whose entries are further ports (`cases` of a switch, `labels` of a classify node). */
  portsField: string | null;
  router: boolean;
  /** Whether the type runs an inline graph (`body`). */
  composite: boolean;
  /**
   * JSON Schema (2020-12) of the type-specific fields, with each field's `description`, `default` and,
   * where JSON types say too little, `x-weft-kind` (cel, celList, template, channel, port, jsonSchema, graph,
   * knowledgeBase: a knowledge base's name).
   */
  configSchema: Record<string, unknown>;
  /** The config a new node starts with (the type's `defaultConfig`); null when `{}` will do. */
  defaultConfig: Record<string, JsonValue> | null;
}

const schemas = new WeakMap<z.ZodType, Record<string, unknown>>();

export function describeNodeType(definition: NodeTypeDefinition): NodeTypeDescription {
  const config = definition.config ?? seedNodeConfig;
  let configSchema = schemas.get(config);
  if (!configSchema) {
    configSchema = z.toJSONSchema(config, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    schemas.set(config, configSchema);
  }
  const bare = { id: "", type: definition.type, config: {} };
  return {
    type: definition.type,
    label: definition.label,
    component: definition.component,
    description: definition.description ?? "",
    profile: SEED_NODE_TYPES.includes(definition.type) ? "seed" : "pipeline",
    accepts: [...definition.accepts],
    feeds: [...definition.feeds],
    inDegree: bounds(definition.inDegree),
    outDegree: bounds(definition.outDegree),
    count: definition.count ? bounds(definition.count) : null,
    usesModel: definition.usesModel,
    attributes: definition.attributes instanceof z.ZodObject ? Object.keys(definition.attributes.shape) : [],
    ports: definition.router ? [...definition.router.ports(bare)] : [DEFAULT_PORT],
    portsField: definition.router?.portsField ?? null,
    router: definition.router !== undefined,
    composite: definition.body !== undefined,
    configSchema,
    // A copy: a caller that changes it must not change the type.
    defaultConfig: definition.defaultConfig ? (JSON.parse(JSON.stringify(definition.defaultConfig)) as Record<string, JsonValue>) : null,
  };
}

/** Every type of a registry, in registry order. */
export function describeNodeTypes(registry: NodeTypeRegistry): NodeTypeDescription[] {
  return registry.definitions().map(describeNodeType);
}

function bounds(value: Bounds): { min: number; max: number | null } {
  return { min: value.min, max: Number.isFinite(value.max) ? value.max : null };
}
