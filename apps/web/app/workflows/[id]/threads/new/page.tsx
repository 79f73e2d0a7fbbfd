import { Suspense } from "react";
import { ConversationPage } from "@/features/threads/conversation-page";

// The conversation reads `?run=` from the address (useSearchParams), which needs a Suspense boundary.
export default async function NewThreadRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <ConversationPage workflowId={id} threadId={null} />
    </Suspense>
  );
}
