import type { NodeExecutor } from "../registry/node-type-spec.js";

/** Generation, ensemble and validation nodes (SPEC §4). Implemented with the executor. */
export const executeModelNode: NodeExecutor = async () => {
  throw new Error("executeModelNode: not implemented yet");
};
