import type { NodeExecutor } from "../registry/node-type-spec.js";

/** Input and output nodes (SPEC §4). Implemented with the executor. */
export const executeTextNode: NodeExecutor = async () => {
  throw new Error("executeTextNode: not implemented yet");
};
