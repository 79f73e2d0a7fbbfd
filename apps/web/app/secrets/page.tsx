import { SecretsPage } from "@/features/secrets/secrets-page";

export default function SecretsRoute() {
  return <SecretsPage />;
}
