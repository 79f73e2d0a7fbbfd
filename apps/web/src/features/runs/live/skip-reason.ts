import type { MessageKey } from "../../../i18n/dictionary.type";
import type { useT } from "../../../i18n/i18n-provider";

const SKIP_KEYS: Record<string, MessageKey> = {
  BRANCH_NOT_TAKEN: "pipeline.skip.BRANCH_NOT_TAKEN",
  UPSTREAM_FAILED: "pipeline.skip.UPSTREAM_FAILED",
  RUN_CANCELLED: "pipeline.skip.RUN_CANCELLED",
};

/** Why a node was skipped, in words ("not taken"); a reason the UI does not know yet as its code. */
export function skipReasonText(t: ReturnType<typeof useT>, reason: string | null | undefined): string | undefined {
  if (!reason) return undefined;
  const key = SKIP_KEYS[reason];
  return key ? t(key) : t("pipeline.live.skipped", { reason });
}
