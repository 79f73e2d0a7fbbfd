"use client";

import Link from "next/link";
import { useT } from "@/i18n/i18n-provider";

export default function NotFound() {
  const t = useT();
  return (
    <div className="page">
      <h1>{t("common.notFound.title")}</h1>
      <Link href="/workflows">{t("common.notFound.back")}</Link>
    </div>
  );
}
