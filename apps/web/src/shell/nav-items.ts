import type { MessageKey } from "../i18n/dictionary.type";

export interface NavItem {
  href: string;
  label: MessageKey;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/workflows", label: "common.nav.workflows" },
  { href: "/runs", label: "common.nav.runs" },
  { href: "/inbox", label: "common.nav.inbox" },
  { href: "/datasets", label: "common.nav.datasets" },
  { href: "/knowledge-bases", label: "common.nav.knowledgeBases" },
  { href: "/api-keys", label: "common.nav.apiKeys" },
  { href: "/secrets", label: "common.nav.secrets" },
  { href: "/settings", label: "common.nav.settings" },
];

export function isActive(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}
