import { Suspense } from "react";
import { VersionComparePage } from "@/features/versions/version-compare-page";

// The versions to compare are in the address (useSearchParams), which needs a Suspense boundary.
export default async function WorkflowCompareRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <VersionComparePage workflowId={id} />
    </Suspense>
  );
}
