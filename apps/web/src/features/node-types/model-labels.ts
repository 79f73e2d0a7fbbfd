import { useCallback } from "react";
import { useI18n } from "../../i18n/i18n-provider";

/** Korean names of the providers and models the API labels in English (by provider id, then `provider/model`). */
const MODEL_LABELS_KO: Record<string, string> = {
  offline: "오프라인 테스트 모델 (언어 모델 아님)",
  "offline/echo": "echo — 입력 데이터를 그대로 답합니다 (테스트 모델)",
  "offline/invalid-json": "invalid-json — JSON으로 답하지 않습니다 (테스트 모델)",
  "offline/flaky": "flaky — 프롬프트마다 두 번 실패한 뒤 입력을 답합니다 (테스트 모델)",
  "offline/scripted": "scripted — params.replies를 노드 실행마다 차례로 답합니다 (테스트 모델)",
};

/** A provider's or model's label in the UI's language: the API's, or its Korean where there is one. */
export function useModelLabel(): (english: string, providerId: string, modelId?: string) => string {
  const { language } = useI18n();
  return useCallback(
    (english, providerId, modelId) => (language === "ko" ? (MODEL_LABELS_KO[modelId ? `${providerId}/${modelId}` : providerId] ?? english) : english),
    [language],
  );
}
