import { z } from "zod";
import { WeftError } from "../../model/errors.js";
import { namespaceProblem, resolveCacheScope, type CacheScope, type SemanticCache } from "../../providers/semantic-cache.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import { configValue } from "./router-ports.js";

/** `namespace` on cache_lookup and cache_store nodes. */
export const namespaceField = z
  .string()
  .superRefine((namespace, context) => {
    const problem = namespaceProblem(namespace);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .optional()
  .meta({ description: "Cache shared under this name by every workflow and version that names it; default: this workflow version's own cache." });

/**
 * The cache a node uses and its scope: its `namespace`, else the version of the workflow the run
 * executes (with `perNode`, that version's cache of this node alone: `cache` on `llm` nodes). Null,
 * with a CACHE_UNAVAILABLE warning, when the run has no cache service: the node then behaves as if
 * nothing were cached, so a pipeline still answers without one.
 */
export function nodeCache(context: NodeExecutionContext, options: { perNode?: boolean } = {}): { cache: SemanticCache; scope: CacheScope } | null {
  const cache = context.tools.cache;
  if (!cache) {
    context.emit({
      type: "WARNING",
      nodeId: context.node.id,
      code: "CACHE_UNAVAILABLE",
      message: "this node uses a semantic cache, but no cache service is configured; it ran without one",
    });
    return null;
  }
  const namespace = configValue<string | null>(context.node, "namespace", null);
  const owner = context.tools.workflowVersion;
  if (namespace) return { cache, scope: resolveCacheScope(namespace, owner ?? { workflowId: "", version: 0 }) };
  if (!owner) {
    throw new WeftError("CACHE_SCOPE_UNKNOWN", `node "${context.node.id}" names no cache namespace, and the run does not say which workflow version it executes`, {
      audience: "operational",
    });
  }
  return { cache, scope: options.perNode ? { kind: "node", ...owner, nodeId: context.node.id } : { kind: "workflow", ...owner } };
}
