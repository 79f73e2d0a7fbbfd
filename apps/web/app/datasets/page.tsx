import { DatasetsPage } from "@/features/evaluations/datasets-page";

export default function DatasetsRoute() {
  return <DatasetsPage />;
}
