import { WorkflowEditorPage } from "@/features/editor/workflow-editor-page";

export default async function WorkflowEditorRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WorkflowEditorPage workflowId={id} />;
}
