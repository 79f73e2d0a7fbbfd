"use client";

import { useT } from "@/i18n/i18n-provider";
import { formatScore } from "./experiment-format";

export interface ScoreLike {
  scorer: string;
  score: number;
  pass: boolean;
  reason: string;
}

/** One scorer's verdict on a row: the score, pass or fail, and the reason on hover and beneath. */
export function ScoreCell({ score }: { score: ScoreLike | undefined }) {
  const t = useT();
  if (!score) return <td className="muted">—</td>;
  return (
    <td className={`eval-score eval-score--${score.pass ? "pass" : "fail"}`} data-scorer={score.scorer} data-pass={score.pass}>
      <strong>{formatScore(score.score)}</strong> {score.pass ? t("evaluations.results.pass") : t("evaluations.results.fail")}
      {score.reason ? (
        <div className="eval-score__reason" translate="no">
          {score.reason}
        </div>
      ) : null}
    </td>
  );
}
