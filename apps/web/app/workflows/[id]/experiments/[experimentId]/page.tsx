import { ExperimentPage } from "@/features/evaluations/experiment-page";

export default async function ExperimentRoute({ params }: { params: Promise<{ id: string; experimentId: string }> }) {
  const { id, experimentId } = await params;
  return <ExperimentPage workflowId={id} experimentId={experimentId} />;
}
