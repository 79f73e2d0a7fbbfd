import { ApiKeysPage } from "@/features/api-keys/api-keys-page";

export default function ApiKeysRoute() {
  return <ApiKeysPage />;
}
