import { TaskPage } from "@/features/inbox/task-page";

export default async function TaskRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TaskPage taskId={id} />;
}
