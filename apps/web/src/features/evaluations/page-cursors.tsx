"use client";

import { useState } from "react";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";

/** The datasets' and experiments' lists: their queries ask for this many (`first: 50`). */
export const LIST_PAGE_SIZE = 50;

/**
 * Forward-only cursors as pages you can step back through: the cursors of the pages before this one are
 * kept, so "Previous" needs no backwards cursor from the API.
 */
export function usePageCursors() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    after: cursors[cursors.length - 1] ?? null,
    index: cursors.length - 1,
    next: (endCursor: string | null | undefined) => setCursors((list) => [...list, endCursor ?? null]),
    previous: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    reset: () => setCursors([null]),
  };
}

interface PageFooterProps {
  pages: ReturnType<typeof usePageCursors>;
  pageSize: number;
  shown: number;
  total: number;
  hasNextPage: boolean;
  endCursor: string | null | undefined;
}

/** "Rows 51–100 of 240" and the buttons to step through the pages. */
export function PageFooter({ pages, pageSize, shown, total, hasNextPage, endCursor }: PageFooterProps) {
  const t = useT();
  const from = pages.index * pageSize + (shown > 0 ? 1 : 0);
  return (
    <div className="list-footer">
      <span>{t("evaluations.page", { from, to: pages.index * pageSize + shown, total })}</span>
      <div className="row">
        <Button disabled={pages.index === 0} onClick={pages.previous}>
          {t("evaluations.previous")}
        </Button>
        <Button disabled={!hasNextPage} onClick={() => pages.next(endCursor)}>
          {t("evaluations.next")}
        </Button>
      </div>
    </div>
  );
}
