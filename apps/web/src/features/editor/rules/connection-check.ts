import { checkEdit, DEFAULT_PORT, LOOP_MAX_BOUND, type Violation } from "@weft/engine";
import { EDIT_REGISTRY, type ValidatedGraph } from "./edit-registry";

export interface ConnectionAttempt {
  source: string | null;
  target: string | null;
  /** The source handle: every handle is named by its port. */
  sourceHandle?: string | null;
}

/** An allowed connection: a data edge, or a loop edge closing `loop` (a new loop to declare, or one declared). */
export type LoopPlan = { kind: "loop"; source: string; target: string; sourcePort: string; loop: string; declared: boolean };
export type ConnectionPlan = { kind: "edge"; source: string; target: string; sourcePort: string } | LoopPlan;

export type ConnectionCheck = { ok: true; plan: ConnectionPlan } | { ok: false; violation: Violation } | { ok: false; violation: null };

const NEW_LOOP_MAX = 3;

/** A loop id the graph does not use yet: `loop`, `loop2`, … */
export function freshLoopId(graph: ValidatedGraph): string {
  const taken = new Set((graph.loops ?? []).map((loop) => loop.id));
  if (!taken.has("loop")) return "loop";
  for (let n = 2; ; n += 1) if (!taken.has(`loop${n}`)) return `loop${n}`;
}

/**
 * Whether source → target may be drawn, with the engine's checkEdit (the server's rules). A connection
 * that the rules refuse as a cycle may still close a loop: back from a router's port to a node upstream,
 * either as one more edge of a loop already declared with that header, or as a new loop declared in the
 * same step (checked with the new declaration in place). The first reason otherwise.
 */
export function checkConnection(graph: ValidatedGraph, attempt: ConnectionAttempt, options: { locked?: boolean } = {}): ConnectionCheck {
  const { source, target } = attempt;
  if (!source || !target) return { ok: false, violation: null };
  const known = new Set(graph.nodes.map((node) => node.id));
  if (!known.has(source) || !known.has(target)) return { ok: false, violation: null };
  const sourcePort = attempt.sourceHandle ?? DEFAULT_PORT;
  const check = (candidate: ValidatedGraph, loop?: string) =>
    checkEdit(candidate, { kind: "addEdge", source, target, sourcePort, ...(loop ? { loop } : {}) }, { registry: EDIT_REGISTRY, locked: options.locked ?? false });

  const plain = check(graph);
  if (plain.length === 0) return { ok: true, plan: { kind: "edge", source, target, sourcePort } };
  if (!plain.some((violation) => violation.code === "CYCLE")) return { ok: false, violation: plain[0]! };

  // Loop edges of one loop all target its header: offer the loops this target already heads.
  const headed = new Set(graph.edges.filter((edge) => edge.loop && edge.target === target).map((edge) => edge.loop!));
  for (const loop of graph.loops ?? []) {
    if (headed.has(loop.id) && check(graph, loop.id).length === 0) return { ok: true, plan: { kind: "loop", source, target, sourcePort, loop: loop.id, declared: true } };
  }
  const loop = freshLoopId(graph);
  const withLoop: ValidatedGraph = { ...graph, loops: [...(graph.loops ?? []), { id: loop, max: NEW_LOOP_MAX, exit: null }] };
  if (check(withLoop, loop).length === 0) return { ok: true, plan: { kind: "loop", source, target, sourcePort, loop, declared: false } };
  return { ok: false, violation: plain[0]! };
}

/** The bounds a new loop's form offers. */
export const LOOP_BOUNDS = { min: 1, max: LOOP_MAX_BOUND, initial: NEW_LOOP_MAX } as const;
