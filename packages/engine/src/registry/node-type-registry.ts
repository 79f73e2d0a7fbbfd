import { WeftError } from "../model/errors.js";
import type { NodeTypeSpec } from "./node-type-spec.js";

/** The set of node types a workflow may use. Immutable once built. */
export class NodeTypeRegistry {
  readonly #specs: ReadonlyMap<string, NodeTypeSpec>;

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
    this.#specs = byType;
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
    const source = this.#specs.get(sourceType);
    const target = this.#specs.get(targetType);
    return !!source && !!target && source.feeds.includes(targetType) && target.accepts.includes(sourceType);
  }
}
