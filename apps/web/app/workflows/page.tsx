import { WorkflowListPage } from "@/features/workflows/workflow-list-page";

export default function WorkflowsRoute() {
  return <WorkflowListPage />;
}
