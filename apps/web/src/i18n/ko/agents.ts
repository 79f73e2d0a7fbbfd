import type { agents as english } from "../en/agents";
import type { Messages } from "../messages.type";

export const agents: Messages<typeof english> = {
  "steps.title": "에이전트 단계",
  "steps.summary": "{steps}단계 · 토큰 {tokens}개",
  "steps.none": "모델이 아직 어떤 단계에도 답하지 않았습니다.",
  "step.title": "{step}단계",
  "step.final": "최종 답변",
  "step.calls": "도구 호출 {calls}건",
  "step.cost": "설정된 가격으로 {cost}",
  "step.finish": "멈춘 이유:",
  "step.noText": "이 단계에서 모델이 쓴 글이 없습니다.",
  "call.arguments": "인수",
  "call.result": "결과(줄임, 전체는 호출의 노드 실행에 있음)",
  "call.error": "오류",
  "call.open": "호출 열기",
  "call.status.waiting": "시작 안 됨",
  "call.status.running": "실행 중",
  "call.status.ok": "응답함",
  "call.status.failed": "실패",
  "call.origin": "에이전트의 도구 호출: {step}단계, {index}번째 호출.",
  "call.back": "에이전트로 돌아가기",
  "log.step": "{step}단계에서 도구 요청:",
  "log.final": "{step}단계에서 최종 답변",
  "log.called": "도구 호출 시작:",
  "log.answered": "도구 응답:",
  "log.failed": "도구 실패:",
};
