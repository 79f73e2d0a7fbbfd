import { parseWorkflowValue, type NodeTypeRegistry, type Workflow } from "@weft/engine";

/** A published version's content: the stored document and the engine's model of it. */
export interface VersionContent {
  document: Record<string, unknown>;
  workflow: Workflow;
}

const DEFAULT_CAPACITY = 256;

/**
 * Parsed version contents by version id. A version never changes, so an entry never goes stale; the
 * least recently used one is dropped past the capacity. Runs of one version then parse its document
 * once per process instead of once per run.
 */
export class VersionContentCache {
  readonly #entries = new Map<string, VersionContent>();

  constructor(
    private readonly registry: NodeTypeRegistry,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** The content of `versionId`, reading `load()` only when it is not cached. */
  async get(versionId: string, load: () => Promise<unknown>): Promise<VersionContent> {
    return this.#touch(versionId) ?? this.#store(versionId, this.parse(versionId, await load()));
  }

  /**
   * The contents of several versions (a page of MCP tools), reading those not cached with one
   * `loadMany` (their stored documents by id) rather than one read each.
   */
  async getMany(versionIds: readonly string[], loadMany: (missing: string[]) => Promise<ReadonlyMap<string, unknown>>): Promise<Map<string, VersionContent>> {
    const found = new Map<string, VersionContent>();
    const missing: string[] = [];
    for (const versionId of new Set(versionIds)) {
      const cached = this.#touch(versionId);
      if (cached) found.set(versionId, cached);
      else missing.push(versionId);
    }
    if (missing.length === 0) return found;
    const documents = await loadMany(missing);
    for (const versionId of missing) {
      if (!documents.has(versionId)) throw new Error(`workflow version ${versionId} does not exist`);
      found.set(versionId, this.#store(versionId, this.parse(versionId, documents.get(versionId))));
    }
    return found;
  }

  /** A cached content, made the most recently used. */
  #touch(versionId: string): VersionContent | undefined {
    const cached = this.#entries.get(versionId);
    if (cached) {
      this.#entries.delete(versionId);
      this.#entries.set(versionId, cached);
    }
    return cached;
  }

  #store(versionId: string, content: VersionContent): VersionContent {
    this.#entries.set(versionId, content);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    return content;
  }

  /** Stored documents were written by publish from a checked workflow; one that does not parse is a server fault. */
  parse(versionId: string, document: unknown): VersionContent {
    const parsed = parseWorkflowValue(document, { registry: this.registry });
    if (!parsed.ok) {
      const first = parsed.issues[0];
      throw new Error(`workflow version ${versionId} holds a document that does not parse: ${first?.path ?? ""} ${first?.message ?? ""}`);
    }
    return { document: document as Record<string, unknown>, workflow: parsed.workflow };
  }
}
