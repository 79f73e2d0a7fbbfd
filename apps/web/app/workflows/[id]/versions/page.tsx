import { VersionsPage } from "@/features/versions/versions-page";

export default async function WorkflowVersionsRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <VersionsPage workflowId={id} />;
}
