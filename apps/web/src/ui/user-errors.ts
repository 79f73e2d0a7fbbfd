"use client";

import { useCallback } from "react";
import type { CombinedError } from "urql";
import { useDescribeError } from "./state-views";
import { useToast } from "./toast";

export interface UserErrorLike {
  code: string;
  message: string;
}

/**
 * Reports a mutation's outcome: a transport error or the payload's user errors go to an error toast.
 * Returns true when the mutation succeeded.
 */
export function useReportOutcome(): (title: string, outcome: { error?: CombinedError | undefined; errors?: readonly UserErrorLike[] | null | undefined }) => boolean {
  const toast = useToast();
  const describe = useDescribeError();
  return useCallback(
    (title, { error, errors }) => {
      if (error) {
        toast.show({ tone: "error", title, message: describe(error) });
        return false;
      }
      if (errors && errors.length > 0) {
        toast.show({ tone: "error", title, message: errors.map((e) => `${e.message} [${e.code}]`).join("\n") });
        return false;
      }
      return true;
    },
    [toast, describe],
  );
}
