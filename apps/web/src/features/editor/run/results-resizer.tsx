"use client";

import { useEffect, useState, type PointerEvent as ReactPointerEvent } from "react";
import { useT } from "../../../i18n/i18n-provider";

const STORAGE_KEY = "weft.resultsHeight";
export const RESULTS_HEIGHT = { initial: 240, min: 120, maxShare: 0.75 } as const;

/** The results pane's height, as the reader last left it (kept in this browser). */
export function useResultsHeight(): [number, (height: number) => void] {
  const [height, setHeight] = useState<number>(RESULTS_HEIGHT.initial);
  useEffect(() => {
    const stored = Number(localStorage.getItem(STORAGE_KEY));
    if (Number.isFinite(stored) && stored >= RESULTS_HEIGHT.min) setHeight(stored);
  }, []);
  const set = (next: number) => {
    setHeight(next);
    localStorage.setItem(STORAGE_KEY, String(Math.round(next)));
  };
  return [height, set];
}

/** The bar between the canvas and the results pane: drag it (or use the arrow keys) to resize the pane. */
export function ResultsResizer({ height, onResize }: { height: number; onResize: (height: number) => void }) {
  const t = useT();
  const clamp = (value: number) => Math.max(RESULTS_HEIGHT.min, Math.min(window.innerHeight * RESULTS_HEIGHT.maxShare, value));
  const start = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const from = event.clientY;
    const was = height;
    const move = (moved: PointerEvent) => onResize(clamp(was + from - moved.clientY));
    const stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", stop);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", stop);
  };
  return (
    <div
      className="results-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label={t("editor.results.resize")}
      aria-valuenow={Math.round(height)}
      tabIndex={0}
      data-testid="results-resizer"
      onPointerDown={start}
      onKeyDown={(event) => {
        if (event.key === "ArrowUp") onResize(clamp(height + 40));
        else if (event.key === "ArrowDown") onResize(clamp(height - 40));
      }}
    />
  );
}
