"use client";

import { useEffect } from "react";

/** Reports a form's unsaved state as it changes, and "clean" when the form goes away. */
export function useDirtyReport(dirty: boolean, onDirtyChange: ((dirty: boolean) => void) | undefined): void {
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
}
