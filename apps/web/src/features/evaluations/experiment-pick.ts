/**
 * The two experiments picked on the experiments page for a comparison. A pick keeps its start time, so
 * the pair holds across the list's pages: the older is the baseline (a), the newer the candidate (b).
 */
export interface PickedExperiment {
  id: string;
  createdAt: string;
}

/** Picks `experiment`, or unpicks it when picked; a third pick lets the first go. */
export function togglePick(picked: readonly PickedExperiment[], experiment: PickedExperiment): PickedExperiment[] {
  return picked.some((one) => one.id === experiment.id) ? picked.filter((one) => one.id !== experiment.id) : [...picked.slice(-1), { id: experiment.id, createdAt: experiment.createdAt }];
}

/** The comparison of the two picks, baseline first; null until two are picked. */
export function comparisonPair(picked: readonly PickedExperiment[]): { a: string; b: string } | null {
  if (picked.length !== 2) return null;
  const [older, newer] = [...picked].sort((x, y) => Date.parse(x.createdAt) - Date.parse(y.createdAt));
  return { a: older!.id, b: newer!.id };
}
