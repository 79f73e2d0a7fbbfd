import type { Messages } from "../messages.type";
import type { templates as en } from "../en/templates";

export const templates: Messages<typeof en> = {
  "demo.name": "초안·검증·병합",
  "demo.description": "첫 워크플로: 질문과 메모로 답변 초안을 쓰고, 검증하고, 둘을 합칩니다. 오프라인 echo 모델로 실행됩니다.",
  "seed-001-adaptive-rag.name": "라우팅, 하위 작업, 답변 검사를 갖춘 적응형 RAG",
  "seed-001-adaptive-rag.description": "라우터가 직접 답변, 대화 기록을 반영한 재작성, 계획된 하위 작업 중 하나를 고르고, 평가기가 종합 단계를 되돌립니다.",
  "seed-002-query-flow.name": "시맨틱 캐시와 검색 루프가 있는 쿼리 흐름",
  "seed-002-query-flow.description": "앞단의 시맨틱 캐시, 충분성 루프가 있는 다중 쿼리 검색, 재정렬과 환각 검사.",
  "seed-003-parallel-self-rag.name": "광주 팝업스토어 안내 챗봇",
  "seed-003-parallel-self-rag.description": "가드레일, 병렬 검색과 웹 검색, Self-RAG 답변 검사.",
  "seed-004-codeweaver.name": "CodeWeaver: 계획하고, 질문마다 답하고, 다듬기",
  "seed-004-codeweaver.description": "질문을 계획하고, 캐시를 쓰는 작업자와 세 가지 검색으로 각각 답한 뒤 한 번 다듬습니다.",
};
