import { ExperimentComparePage } from "@/features/evaluations/experiment-compare-page";

// ?a=<baseline>&b=<candidate>: the two experiments compared.
export default async function ExperimentCompareRoute({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ a?: string; b?: string }> }) {
  const [{ id }, { a, b }] = await Promise.all([params, searchParams]);
  return <ExperimentComparePage workflowId={id} a={a ?? ""} b={b ?? ""} />;
}
