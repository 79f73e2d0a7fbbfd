import { describe, expect, it } from "vitest";
import { cacheScopeKey, namespaceProblem, resolveCacheScope } from "./semantic-cache.js";

describe("cache scopes", () => {
  it("scope a node without a namespace to the workflow version that runs it", () => {
    const scope = resolveCacheScope(undefined, { workflowId: "wf_1", version: 7 });
    expect(cacheScopeKey(scope)).toBe("workflow:wf_1:v7");
    expect(cacheScopeKey(resolveCacheScope("  ", { workflowId: "wf_1", version: 7 }))).toBe("workflow:wf_1:v7");
  });

  it("share a named namespace across workflows and versions, apart from any workflow scope", () => {
    const a = cacheScopeKey(resolveCacheScope("faq", { workflowId: "wf_1", version: 1 }));
    const b = cacheScopeKey(resolveCacheScope("faq", { workflowId: "wf_2", version: 9 }));
    expect(a).toBe("ns:faq");
    expect(b).toBe(a);
    expect(cacheScopeKey(resolveCacheScope("workflow:wf_1:v1", { workflowId: "x", version: 1 }))).not.toBe("workflow:wf_1:v1");
  });

  it("give an llm node's own cache a key of its own within the version", () => {
    expect(cacheScopeKey({ kind: "node", workflowId: "wf_1", version: 7, nodeId: "answer" })).toBe("workflow:wf_1:v7:node:answer");
    expect(cacheScopeKey({ kind: "workflow", workflowId: "wf_1", version: 12, draft: true })).toBe("workflow:wf_1:draft@12");
    expect(cacheScopeKey({ kind: "node", workflowId: "wf_1", version: 12, draft: true, nodeId: "answer" })).toBe("workflow:wf_1:draft@12:node:answer");
  });

  it("refuse blank, overlong and control-character namespaces", () => {
    expect(namespaceProblem("질문-캐시")).toBeNull();
    expect(namespaceProblem(" ")).toMatch(/blank/);
    expect(namespaceProblem("x".repeat(101))).toMatch(/100/);
    expect(namespaceProblem("a\nb")).toMatch(/control/);
  });
});
