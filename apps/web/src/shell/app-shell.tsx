"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { useT } from "../i18n/i18n-provider";
import { LanguageSwitch } from "../i18n/language-switch";
import { ApiKeyControl } from "./api-key-control";
import { NAV_ITEMS, isActive } from "./nav-items";

export function AppShell({ children }: { children: ReactNode }) {
  const t = useT();
  const pathname = usePathname() ?? "/";
  return (
    <div className="shell">
      <header className="shell__header">
        <Link href="/workflows" className="shell__brand">
          <span className="shell__logo" aria-hidden="true">◇</span> {t("common.app.name")}
          <span className="shell__tagline">{t("common.app.tagline")}</span>
        </Link>
        <nav aria-label={t("common.nav.main")} className="shell__nav">
          {NAV_ITEMS.map((item) => (
            <Link key={item.href} href={item.href} className={isActive(pathname, item.href) ? "nav-link nav-link--active" : "nav-link"} aria-current={isActive(pathname, item.href) ? "page" : undefined}>
              {t(item.label)}
            </Link>
          ))}
        </nav>
        <div className="shell__tools">
          <ApiKeyControl />
          <LanguageSwitch />
        </div>
      </header>
      <main className="shell__main">{children}</main>
    </div>
  );
}
