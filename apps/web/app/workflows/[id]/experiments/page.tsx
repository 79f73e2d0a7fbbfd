import { ExperimentsPage } from "@/features/evaluations/experiments-page";

// ?version=N (from the versions page) preselects that version in the start form.
export default async function WorkflowExperimentsRoute({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ version?: string }> }) {
  const [{ id }, { version }] = await Promise.all([params, searchParams]);
  const number = Number(version);
  return <ExperimentsPage workflowId={id} initialVersion={Number.isInteger(number) && number > 0 ? number : null} />;
}
