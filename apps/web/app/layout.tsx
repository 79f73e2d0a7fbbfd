import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppShell } from "@/shell/app-shell";
import { Providers } from "@/shell/providers";
import "@xyflow/react/dist/style.css";
import "@/styles/globals.css";

export const metadata: Metadata = {
  title: "Weft",
  description: "Compose and run LLM workflows",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
