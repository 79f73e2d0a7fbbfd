/**
 * A publish the gate refused (PUBLISH_GATE_FAILED, SPEC-V3 §4), as the publish dialog shows it: the
 * API sends one error for the scorers below the minimum (`path: ["scorers", id…]`) and one for the rows
 * that regressed (`path: ["rows", rowId…]`), each with a message naming the means or the positions.
 */
export interface GateRefusal {
  /** Scorer ids whose mean is below the gate's minimum. */
  scorers: string[];
  /** Ids of the rows that regressed against the latest published version. */
  rowIds: string[];
  /** The API's sentences (means, positions, the experiments compared), in its order. */
  messages: string[];
}

interface ErrorLike {
  code: string;
  message: string;
  path?: readonly string[] | null;
}

export const PUBLISH_GATE_FAILED = "PUBLISH_GATE_FAILED";

/** The gate's refusal in these errors, or null when the gate did not refuse. */
export function readGateRefusal(errors: readonly ErrorLike[] | null | undefined): GateRefusal | null {
  const refusals = (errors ?? []).filter((error) => error.code === PUBLISH_GATE_FAILED);
  if (refusals.length === 0) return null;
  const named = (kind: string) => refusals.flatMap((error) => (error.path?.[0] === kind ? error.path.slice(1) : []));
  return { scorers: named("scorers"), rowIds: named("rows"), messages: refusals.map((error) => error.message) };
}

/**
 * The experiments a refusal's messages name, candidate (the draft's) first: "experiment <id>: …" opens
 * each message, "(experiment <id>)" names the published version's. Only for a link to their comparison;
 * what failed is read from the paths above.
 */
export function experimentsNamed(refusal: GateRefusal): { candidate: string | null; baseline: string | null } {
  let candidate: string | null = null;
  let baseline: string | null = null;
  for (const message of refusal.messages) {
    candidate ??= /^experiment ([\w-]+):/.exec(message)?.[1] ?? null;
    baseline ??= /\(experiment ([\w-]+)\)/.exec(message)?.[1] ?? null;
  }
  return { candidate, baseline };
}
