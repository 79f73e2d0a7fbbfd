import type { Messages } from "../messages.type";
import type { mcpTool as en } from "../en/mcp-tool";

/** 워크플로를 /mcp의 MCP 서버 도구로 제공하기 (docs/mcp.md). */
export const mcpTool: Messages<typeof en> = {
  "title": "MCP 도구로 제공",
  "help": "MCP 클라이언트(코드 편집기, 데스크톱 앱, 에이전트 프레임워크)는 /mcp에서 이 서버의 도구 목록을 보고 호출합니다. 호출마다 최신 게시 버전이 일반 실행으로 실행되며 실행 기록에 남습니다.",
  "enabled": "이 워크플로를 /mcp의 도구로 제공",
  "toolName": "도구 이름",
  "toolNameHelp": "영문자, 숫자, _, - 1–64자이며 워크플로 사이에서 고유해야 합니다. 비워 두면 지금 이름을 유지하고, 처음에는 워크플로 이름에서 다른 문자를 _로 바꾼 이름을 씁니다.",
  "description": "모델에게 주는 설명",
  "descriptionHelp": "모델이 읽는 도구 설명이며 최대 2,000자입니다. 비워 두면 워크플로 설명을 씁니다.",
  "save": "MCP 설정 저장",
  "saved": "MCP 설정을 저장했습니다",
  "failed": "MCP 설정을 저장하지 못했습니다",
  "state.offered": "/mcp에서 {name}(으)로 제공 중입니다.",
  "state.off": "/mcp에서 제공하지 않습니다.",
  "unpublished": "이 워크플로에는 게시된 버전이 없습니다. tools/list는 게시된 워크플로만 보여 주므로 버전을 게시해야 제공됩니다.",
  "endpoint": "이 서버의 MCP 엔드포인트",
  "config": "클라이언트 설정 (mcp.json)",
  "configHelp": "클라이언트의 mcpServers에 붙여 넣고 weft_…를 다음 범위가 있는 API 키로 바꾸세요:",
  "configHelpLocal": "이 서버는 키 없이 실행 중입니다(로컬 모드). 이 컴퓨터의 클라이언트에는 헤더가 필요 없습니다.",
  "keysLink": "키 만들기",
  "copy": "복사",
  "copied": "복사됨",
  "copyFailed": "복사하지 못했습니다. 텍스트를 선택해 직접 복사하세요.",
  "code.MCP_TOOL_NAME_INVALID": "이름은 영문자, 숫자, _, - 1–64자여야 합니다.",
  "code.MCP_TOOL_NAME_TAKEN": "다른 워크플로가 이미 이 이름을 쓰고 있습니다(비활성 워크플로 포함). 그 워크플로의 이름을 먼저 바꾸세요.",
  "code.LIMIT_EXCEEDED": "너무 깁니다.",
  "code.NOT_FOUND": "이 워크플로가 없습니다.",
};
