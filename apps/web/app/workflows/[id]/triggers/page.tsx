import { TriggersPage } from "@/features/triggers/triggers-page";

export default async function WorkflowTriggersRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TriggersPage workflowId={id} />;
}
