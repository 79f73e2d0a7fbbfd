import type { Messages } from "../messages.type";
import type { templates as en } from "../en/templates";

export const templates: Messages<typeof en> = {
  "demo": "seed-000 데모: 질문과 메모를 오프라인 echo 모델로 초안·검증·병합합니다.",
  "seed-001-adaptive-rag": "적응형 RAG: 라우터가 직접 답변, 대화 기록을 반영한 재작성, 계획된 하위 작업 중 하나를 고르고, 평가기가 종합 단계를 되돌립니다.",
  "seed-002-query-flow": "쿼리 흐름: 앞단의 시맨틱 캐시, 충분성 루프가 있는 다중 쿼리 검색, 재정렬과 환각 검사.",
  "seed-003-parallel-self-rag": "팝업 안내 챗봇: 가드레일, 병렬 검색과 웹 검색, Self-RAG 답변 검사.",
  "seed-004-codeweaver": "CodeWeaver: 질문을 계획하고, 캐시를 쓰는 작업자와 세 가지 검색으로 각각 답한 뒤 한 번 다듬습니다.",
};
