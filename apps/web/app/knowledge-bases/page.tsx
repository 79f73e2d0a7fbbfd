import { KnowledgeBaseListPage } from "@/features/knowledge-bases/knowledge-base-list-page";

export default function KnowledgeBasesRoute() {
  return <KnowledgeBaseListPage />;
}
