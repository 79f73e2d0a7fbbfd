"use client";

import type { ReactNode } from "react";
import { I18nProvider } from "../i18n/i18n-provider";
import { GraphqlProvider } from "../lib/graphql-provider";
import { ToastProvider } from "../ui/toast";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <ToastProvider>
        <GraphqlProvider>{children}</GraphqlProvider>
      </ToastProvider>
    </I18nProvider>
  );
}
