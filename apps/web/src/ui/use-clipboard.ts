"use client";

import { useCallback, useState } from "react";

/**
 * Copies text and remembers what was copied last (`what`), or "failed" when the browser refused (no
 * clipboard permission, an insecure origin), so the caller can say so and let the user copy by hand.
 */
export function useClipboard<What extends string = "text">() {
  const [copied, setCopied] = useState<What | "failed" | null>(null);
  const copy = useCallback(async (text: string, what: What) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      setCopied("failed");
    }
  }, []);
  return { copied, copy };
}
