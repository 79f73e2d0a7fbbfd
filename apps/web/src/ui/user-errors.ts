"use client";

import { useCallback, useState } from "react";
import type { CombinedError } from "urql";
import type { MessageKey } from "@/i18n/dictionary.type";
import { useT } from "@/i18n/i18n-provider";
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

/** A user error shown beside its form: the code, the server's sentence, and where (`path`), when it said. */
export interface ShownUserError extends UserErrorLike {
  path?: readonly string[] | null;
}

/**
 * A form's refusals: a transport error goes to the toast (nothing to show at the form); the payload's
 * user errors stay beside the form until the next attempt. `settle` says whether the mutation succeeded.
 */
export function useFormErrors(title: MessageKey) {
  const t = useT();
  const report = useReportOutcome();
  const [errors, setErrors] = useState<readonly ShownUserError[]>([]);
  const settle = useCallback(
    (error: CombinedError | undefined, payloadErrors: readonly ShownUserError[] | undefined): boolean => {
      setErrors(error ? [] : (payloadErrors ?? []));
      if (error) return report(t(title), { error });
      return (payloadErrors ?? []).length === 0;
    },
    [report, t, title],
  );
  return { errors, settle, clear: useCallback(() => setErrors([]), []) };
}

/**
 * The page's own words for a refusal's code: the message `<prefix><CODE>` (`"secrets.error."`) when the
 * dictionaries have one, else null (the caller shows the code and the server's sentence). The
 * dictionaries are the list of worded codes, so a page keeps no second list to fall out of step.
 */
export function codeWords(t: (key: MessageKey) => string, prefix: string, code: string): string | null {
  const key = `${prefix}${code}` as MessageKey;
  const words = t(key);
  return words === key ? null : words;
}
