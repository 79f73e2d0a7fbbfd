import { KnowledgeBaseDetailPage } from "@/features/knowledge-bases/knowledge-base-detail-page";

export default async function KnowledgeBaseRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <KnowledgeBaseDetailPage id={id} />;
}
