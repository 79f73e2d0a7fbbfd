"use client";

import { useCallback, useState } from "react";
import type { CombinedError } from "urql";
import type { MessageKey } from "@/i18n/dictionary.type";
import { useT } from "@/i18n/i18n-provider";
import { useReportOutcome } from "@/ui/user-errors";

export interface ShownUserError {
  code: string;
  message: string;
  path?: readonly string[] | null;
}

/** The codes the evaluation operations refuse with (docs/evaluations.md), each said in the user's language. */
const KNOWN_CODES = ["VALIDATION_FAILED", "LIMIT_EXCEEDED", "CONFLICT", "NOT_FOUND", "PATTERN_INVALID", "MODEL_UNAVAILABLE", "PUBLISH_GATE_FAILED"] as const;

/**
 * A mutation's refusals beside the form that caused them: what the code means in the user's language,
 * then the server's own sentence (it names the line, the scorer or the row) and where, from the path.
 */
export function UserErrorList({ errors, testId }: { errors: readonly ShownUserError[]; testId?: string }) {
  const t = useT();
  if (errors.length === 0) return null;
  return (
    <ul className="user-errors" role="alert" data-testid={testId}>
      {errors.map((error, index) => {
        const known = (KNOWN_CODES as readonly string[]).includes(error.code);
        const where = error.path && error.path.length > 1 ? error.path.slice(1).join(" › ") : null;
        return (
          <li key={index} data-code={error.code}>
            <strong>{known ? t(`evaluations.code.${error.code}` as MessageKey) : error.code}</strong>
            {where ? <span className="user-errors__where" translate="no"> ({where})</span> : null}
            <span className="user-errors__message" translate="no">
              {error.message}
            </span>
          </li>
        );
      })}
    </ul>
  );
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
