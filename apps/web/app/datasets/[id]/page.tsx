import { DatasetPage } from "@/features/evaluations/dataset-page";

export default async function DatasetRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <DatasetPage datasetId={id} />;
}
