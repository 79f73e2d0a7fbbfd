"use client";

import { useT } from "@/i18n/i18n-provider";
import { codeWords, type ShownUserError } from "@/ui/user-errors";

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
        const where = error.path && error.path.length > 1 ? error.path.slice(1).join(" › ") : null;
        return (
          <li key={index} data-code={error.code}>
            <strong>{codeWords(t, "evaluations.code.", error.code) ?? error.code}</strong>
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
