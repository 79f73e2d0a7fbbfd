import { WeftError } from "../model/errors.js";
import { DEFAULT_PORT, SEED_NODE_TYPES, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeDefinition } from "./node-type-definition.js";

const SINGLE_PORT: readonly string[] = Object.freeze([DEFAULT_PORT]);

/**
 * The set of node types a workflow may use. Immutable once built. Neighbour lists are resolved here:
 * a definition's `acceptsAnyExcept` / `feedsAnyExcept` add every other registered type after its own
 * list, so `get(type).accepts` and `.feeds` are always the concrete lists (SPEC-V2 §1: the seed types'
 * post-node lists grow with every new type, and new types accept any type but output).
 *
 * This is the contract only: which types exist is the caller's list (`node-types/built-in-node-types.ts`),
 * handed to every checker and runner, never looked up from here.
 */
export class NodeTypeRegistry {
  readonly #definitions: ReadonlyMap<string, NodeTypeDefinition>;
  /** Per source type, the target types both sides allow (`allowsPair` is asked once per edge). */
  readonly #pairs: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(definitions: readonly NodeTypeDefinition[]) {
    const byType = new Map<string, NodeTypeDefinition>();
    for (const definition of definitions) {
      if (byType.has(definition.type)) {
        throw new WeftError("REGISTRY_DUPLICATE_TYPE", `node type "${definition.type}" is registered twice`, {
          audience: "internal",
        });
      }
      byType.set(definition.type, definition);
    }
    const types = [...byType.keys()];
    for (const [type, definition] of byType) {
      byType.set(type, {
        ...definition,
        accepts: resolve(definition.accepts, definition.acceptsAnyExcept, types),
        feeds: resolve(definition.feeds, definition.feedsAnyExcept, types),
      });
    }
    this.#definitions = byType;
    this.#pairs = new Map([...byType.values()].map((source) => [source.type, new Set(source.feeds.filter((target) => byType.get(target)?.accepts.includes(source.type)))]));
  }

  get(type: string): NodeTypeDefinition | undefined {
    return this.#definitions.get(type);
  }

  require(type: string): NodeTypeDefinition {
    const definition = this.#definitions.get(type);
    if (!definition) throw new WeftError("UNKNOWN_NODE_TYPE", `unknown node type "${type}"`);
    return definition;
  }

  has(type: string): boolean {
    return this.#definitions.has(type);
  }

  types(): string[] {
    return [...this.#definitions.keys()];
  }

  definitions(): NodeTypeDefinition[] {
    return [...this.#definitions.values()];
  }

  /** Whether an edge source → target is allowed by both sides' neighbour lists. */
  allowsPair(sourceType: string, targetType: string): boolean {
    return this.#pairs.get(sourceType)?.has(targetType) ?? false;
  }

  /** The node's output ports: `["out"]`, or a router's own (SPEC-V2 §2). Unknown types have `out`. */
  portsOf(node: WorkflowNode): readonly string[] {
    return this.#definitions.get(node.type)?.router?.ports(node) ?? SINGLE_PORT;
  }

  /** Whether the type is registered and one of seed 000's, the types a `weft.workflow/v1` document may hold. */
  isSeedType(type: string): boolean {
    return this.#definitions.has(type) && SEED_NODE_TYPES.includes(type);
  }
}

function resolve(listed: readonly string[], anyExcept: readonly string[] | undefined, types: readonly string[]): readonly string[] {
  if (!anyExcept) return listed;
  const excluded = new Set([...listed, ...anyExcept]);
  return [...listed, ...types.filter((type) => !excluded.has(type))];
}
