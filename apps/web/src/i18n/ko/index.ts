import type { Dictionary } from "../dictionary.type";
import { common } from "./common";
import { editor } from "./editor";
import { workflows } from "./workflows";

export const ko: Dictionary = {
  common,
  editor,
  workflows,
};
