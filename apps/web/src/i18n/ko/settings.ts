import type { settings as english } from "../en/settings";
import type { Messages } from "../messages.type";

export const settings: Messages<typeof english> = {
  "title": "설정",
  "server.title": "서버",
  "server.version": "버전",
  "server.mode": "데이터베이스 모드",
  "server.mode.embedded": "내장형(데이터 디렉터리의 PGlite, 설정 불필요)",
  "server.mode.server": "서버형(DATABASE_URL의 PostgreSQL)",
  "server.auth": "인증",
  "server.auth.required": "필요(API 키)",
  "server.auth.disabled": "꺼짐(루프백 주소에서 로컬 사용)",
  "server.limits": "제한",
  "server.limitsValue": "쿼리 깊이 {depth}, 복잡도 {complexity}, 본문 {body}, 페이지 크기 {page}",
  "models.title": "제공자와 모델",
  "models.empty": "설정된 모델이 없습니다.",
  "models.provider": "제공자",
  "models.model": "모델",
  "models.kind": "비고",
  "models.offline": "오프라인·결정적 동작: 실제 모델이 아님(데모와 테스트용)",
  "models.help": "MISTRAL_API_KEY(와 MISTRAL_MODELS)로 Mistral 모델을 추가합니다. docs/api.md 참고.",
  "connection.title": "이 브라우저",
  "connection.endpoint": "API 주소",
  "connection.override": "?api=로 지정되어 이 브라우저에 기억된 주소입니다.",
  "connection.reset": "기본 주소 사용",
};
