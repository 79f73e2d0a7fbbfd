import { common } from "./common";
import { editor } from "./editor";
import { workflows } from "./workflows";
import { runs } from "./runs";
import { knowledgeBases } from "./knowledge-bases";
import { apiKeys } from "./api-keys";
import { settings } from "./settings";
import { rules } from "./rules";
import { versions } from "./versions";
import { templates } from "./templates";
import { pipeline } from "./pipeline";
import { threads } from "./threads";
import { canvas } from "./canvas";
import { runDialog } from "./run-dialog";
import { triggers } from "./triggers";
import { inbox } from "./inbox";
import { agents } from "./agents";
import { secrets } from "./secrets";
import { evaluations } from "./evaluations";
import { mcpTool } from "./mcp-tool";

/**
 * English is the reference dictionary: one namespace per feature, each in its own file, so features
 * add their strings without touching each other's files. Korean must mirror it (checked by the compiler).
 */
export const en = {
  common,
  editor,
  workflows,
  runs,
  knowledgeBases,
  apiKeys,
  settings,
  rules,
  versions,
  templates,
  pipeline,
  threads,
  canvas,
  runDialog,
  triggers,
  inbox,
  agents,
  secrets,
  evaluations,
  mcpTool,
};
