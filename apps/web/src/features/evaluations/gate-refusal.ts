/**
 * A publish the gate refused (PUBLISH_GATE_FAILED, SPEC-V3 §4), as the publish dialog shows it: the
 * API sends one error for the scorers below the minimum (`path: ["scorers", id…]`) and one for the rows
 * that regressed (`path: ["rows", rowId…]`), each with a message naming the means or the positions and
 * `experimentIds` naming the experiments compared.
 */
export interface GateRefusal {
  /** Scorer ids whose mean is below the gate's minimum. */
  scorers: string[];
  /** Ids of the rows that regressed against the latest published version. */
  rowIds: string[];
  /** The API's sentences (means, positions, the experiments compared), in its order. */
  messages: string[];
  /** The draft's experiment, and the latest published version's when rows were compared with it. */
  candidate: string | null;
  baseline: string | null;
}

interface ErrorLike {
  code: string;
  message: string;
  path?: readonly string[] | null;
  experimentIds?: readonly string[] | null;
}

export const PUBLISH_GATE_FAILED = "PUBLISH_GATE_FAILED";

/** The gate's refusal in these errors, or null when the gate did not refuse. */
export function readGateRefusal(errors: readonly ErrorLike[] | null | undefined): GateRefusal | null {
  const refusals = (errors ?? []).filter((error) => error.code === PUBLISH_GATE_FAILED);
  if (refusals.length === 0) return null;
  const named = (kind: string) => refusals.flatMap((error) => (error.path?.[0] === kind ? error.path.slice(1) : []));
  const experiments = (at: number) => refusals.find((error) => error.experimentIds?.[at])?.experimentIds?.[at] ?? null;
  return { scorers: named("scorers"), rowIds: named("rows"), messages: refusals.map((error) => error.message), candidate: experiments(0), baseline: experiments(1) };
}
