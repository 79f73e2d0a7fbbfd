import { WeftError } from "../model/errors.js";
import { DEFAULT_PORT, type WorkflowNode } from "../model/workflow.js";
import type { NodeTypeSpec } from "./node-type-definition.js";

const SINGLE_PORT: readonly string[] = Object.freeze([DEFAULT_PORT]);

/**
 * The set of node types a workflow may use. Immutable once built. Neighbour lists are resolved here:
 * a spec's `acceptsAnyExcept` / `feedsAnyExcept` add every other registered type after its own list, so
 * `get(type).accepts` and `.feeds` are always the concrete lists (SPEC-V2 §1: the seed types' post-node
 * lists grow with every new type, and new types accept any type but output).
 */
export class NodeTypeRegistry {
  readonly #specs: ReadonlyMap<string, NodeTypeSpec>;
  /** Per source type, the target types both sides allow (`allowsPair` is asked once per edge). */
  readonly #pairs: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(specs: readonly NodeTypeSpec[]) {
    const byType = new Map<string, NodeTypeSpec>();
    for (const spec of specs) {
      if (byType.has(spec.type)) {
        throw new WeftError("REGISTRY_DUPLICATE_TYPE", `node type "${spec.type}" is registered twice`, {
          audience: "internal",
        });
      }
      byType.set(spec.type, spec);
    }
    const types = [...byType.keys()];
    for (const [type, spec] of byType) {
      byType.set(type, {
        ...spec,
        accepts: resolve(spec.accepts, spec.acceptsAnyExcept, types),
        feeds: resolve(spec.feeds, spec.feedsAnyExcept, types),
      });
    }
    this.#specs = byType;
    this.#pairs = new Map([...byType.values()].map((source) => [source.type, new Set(source.feeds.filter((target) => byType.get(target)?.accepts.includes(source.type)))]));
  }

  get(type: string): NodeTypeSpec | undefined {
    return this.#specs.get(type);
  }

  require(type: string): NodeTypeSpec {
    const spec = this.#specs.get(type);
    if (!spec) throw new WeftError("UNKNOWN_NODE_TYPE", `unknown node type "${type}"`);
    return spec;
  }

  has(type: string): boolean {
    return this.#specs.has(type);
  }

  types(): string[] {
    return [...this.#specs.keys()];
  }

  specs(): NodeTypeSpec[] {
    return [...this.#specs.values()];
  }

  /** Whether an edge source → target is allowed by both sides' neighbour lists. */
  allowsPair(sourceType: string, targetType: string): boolean {
    return this.#pairs.get(sourceType)?.has(targetType) ?? false;
  }

  /** The node's output ports: `["out"]`, or a router's own (SPEC-V2 §2). Unknown types have `out`. */
  portsOf(node: WorkflowNode): readonly string[] {
    return this.#specs.get(node.type)?.router?.ports(node) ?? SINGLE_PORT;
  }

  /** Whether every type of a workflow's nodes belongs to the seed-000 profile (a v1 document). */
  isSeedType(type: string): boolean {
    return this.#specs.get(type)?.profile === "seed";
  }
}

function resolve(listed: readonly string[], anyExcept: readonly string[] | undefined, types: readonly string[]): readonly string[] {
  if (!anyExcept) return listed;
  const excluded = new Set([...listed, ...anyExcept]);
  return [...listed, ...types.filter((type) => !excluded.has(type))];
}
