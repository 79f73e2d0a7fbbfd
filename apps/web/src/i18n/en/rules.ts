/**
 * Refusals per code, filled with the node ids and types of the current graph. The English sentences
 * follow the engine's messages (packages/engine/src/rules), so both languages say the same thing.
 * `{type}`/`{node}` are the first node a violation names, `{others}` the rest; a `.none` variant is used
 * when it names no node.
 */
export const rules = {
  "type.input": "input",
  "type.generation": "generation",
  "type.ensemble": "ensemble",
  "type.validation": "validation",
  "type.output": "output",
  "or": " or ",
  "INPUT_HAS_PRE": '{type} node "{node}" takes no pre-node',
  "OUTPUT_HAS_POST": '{type} node "{node}" feeds no post-node',
  "TYPE_PAIR_FORBIDDEN": '{targetType} node "{target}" takes only {accepts} nodes as pre-nodes; "{source}" is {sourceTypeArticle} node',
  "TYPE_PAIR_FORBIDDEN.feeds": '{sourceType} node "{source}" feeds only {feeds} nodes; "{target}" is {targetTypeArticle} node',
  "MULTIPLE_PRE": '{type} node "{node}" takes at most {maxPre} pre-node{maxPreS}, but is fed by {others}',
  "MULTIPLE_POST": '{type} node "{node}" feeds at most {maxPost} post-node{maxPostS}, but feeds {others}',
  "SELF_LOOP": '{type} node "{node}" cannot be connected to itself',
  "DUPLICATE_EDGE": '{type} node "{node}" is already connected to {secondType} node "{second}"',
  "CYCLE": "these nodes would form a cycle: {path}",
  "MISSING_PRE": '{type} node "{node}" needs at least 1 pre-node; it has none',
  "MISSING_POST": '{type} node "{node}" needs at least 1 post-node; its output goes nowhere',
  "INPUT_REQUIRED": '{type} node "{node}" cannot be deleted: a workflow needs at least 1 input node',
  "INPUT_REQUIRED.none": "a workflow needs at least 1 input node; it has none",
  "OUTPUT_UNIQUE": 'a workflow needs exactly 1 output node; it has {nodes}',
  "OUTPUT_UNIQUE.none": "a workflow needs exactly 1 output node; it has none",
  "LOCKED_WHILE_RUNNING": "the workflow cannot be changed while one of its runs is active",
  "MODEL_UNAVAILABLE": '{type} node "{node}" names a provider or model that is not configured',
  "UNKNOWN_NODE_TYPE": 'node "{node}" has an unknown type',
  "UNKNOWN_NODE_TYPE.none": "unknown node type",
  "VALIDATION_FAILED": 'invalid value for "{path}": {message}',
  "NOT_FOUND": "it no longer exists (deleted elsewhere?)",
  "LIMIT_EXCEEDED": "a limit was exceeded: {message}",
  "RATE_LIMITED": "too many requests; try again shortly",
  "CONFLICT": "it was changed elsewhere at the same time; reload and try again",
  "DOCUMENT_INVALID": "the workflow document is invalid: {message}",
};
