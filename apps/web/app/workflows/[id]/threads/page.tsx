import { ThreadListPage } from "@/features/threads/thread-list-page";

export default async function WorkflowThreadsRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ThreadListPage workflowId={id} />;
}
