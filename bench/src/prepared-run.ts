import { prepareRun, type PreparedRun, type RunPolicy, type Workflow } from "@weft/engine";

/** A benchmark graph prepared as the API and the CLI prepare runs; a refusal is a bug in the benchmark. */
export function preparedRun(workflow: Workflow, policy: RunPolicy): PreparedRun {
  const prepared = prepareRun(workflow, {}, policy);
  if (!prepared.ok) throw new Error(`benchmark graph refused: ${prepared.violations.map((violation) => violation.message).join("; ")}`);
  return prepared.run;
}
