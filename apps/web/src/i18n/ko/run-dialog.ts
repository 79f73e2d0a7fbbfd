import type { Messages } from "../messages.type";
import type { runDialog as en } from "../en/run-dialog";

export const runDialog: Messages<typeof en> = {
  title: "워크플로 실행",
  version: "실행 대상",
  draft: "캔버스의 초안",
  published: "게시된 버전 v{version}",
  versionHelp: "게시된 버전은 게시된 그대로, 그 버전의 프롬프트와 설정으로 실행됩니다.",
  thread: "대화",
  threadAuto: "워크플로가 대화를 유지하면 새 대화",
  scriptedTitle: "언어 모델이 아닌 테스트 모델:",
  scripted: "{nodes}은(는) 입력을 되돌려 주거나 미리 써 둔 답을 내는 오프라인 테스트 모델로 실행됩니다. 워크플로가 어떻게 실행되는지를 보여 줄 뿐, 언어 모델의 답이 아닙니다.",
};
