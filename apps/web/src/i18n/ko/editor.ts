import type { Messages } from "../messages.type";
import type { editor as en } from "../en/editor";

export const editor: Messages<typeof en> = {
  "title": "편집기",
};
