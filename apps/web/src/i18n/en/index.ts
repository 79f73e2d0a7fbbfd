import { common } from "./common";
import { editor } from "./editor";
import { workflows } from "./workflows";

/**
 * English is the reference dictionary: one namespace per feature, each in its own file, so features
 * add their strings without touching each other's files. Korean must mirror it (checked by the compiler).
 */
export const en = {
  common,
  editor,
  workflows,
};
