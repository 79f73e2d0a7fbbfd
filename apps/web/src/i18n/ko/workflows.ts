import type { Messages } from "../messages.type";
import type { workflows as en } from "../en/workflows";

export const workflows: Messages<typeof en> = {
  "list.title": "워크플로",
  "list.empty": "아직 워크플로가 없습니다. 새로 만들거나 weft.workflow/v1 파일을 가져오세요.",
};
