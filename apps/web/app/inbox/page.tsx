import { InboxPage } from "@/features/inbox/inbox-page";

export default function InboxRoute() {
  return <InboxPage />;
}
