"use client";

import { useCallback, useEffect, useRef } from "react";

/**
 * The callback at most once per interval, the last call's run at the end of it: for a feed that reports
 * more often than the page should refetch (an experiment reports every row; its page reloads once a
 * second at most).
 */
export function useThrottled(callback: () => void, intervalMs: number): () => void {
  const latest = useRef(callback);
  latest.current = callback;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + intervalMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, [intervalMs]);
}
