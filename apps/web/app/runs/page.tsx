import { Suspense } from "react";
import { RunsListPage } from "@/features/runs/list/runs-list-page";

// The list reads its filters from the address (useSearchParams), which needs a Suspense boundary.
export default function RunsRoute() {
  return (
    <Suspense>
      <RunsListPage />
    </Suspense>
  );
}
