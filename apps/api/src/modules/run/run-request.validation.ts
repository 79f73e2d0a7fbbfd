import type { RunRequest } from "@weft/engine";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "../workflow/index.js";
import type { ResolvedRunInput } from "./run-file-inputs.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import type { Outcome } from "../../errors/outcome.js";

/** The request as stored on the run and handed to the engine. */
export interface StoredRunRequest extends RunRequest {
  streamTokens: boolean;
  /** STATE_UPDATED events wanted (absent on runs stored before the option existed). */
  stateEvents?: boolean;
}

/** Whether a stored request asked for STATE_UPDATED events. */
export function wantsStateEvents(request: unknown): boolean {
  return typeof request === "object" && request !== null && (request as { stateEvents?: unknown }).stateEvents === true;
}

/**
 * What a run executes: a published version by number, the draft, or the latest published version
 * (the draft while none is published).
 */
export type RunTarget = { kind: "version"; number: number } | { kind: "draft" } | { kind: "latest" };

/** `inputNodeIds`: the node ids of `input.inputs` in the order given, for error paths. */
export interface CheckedRequest {
  request: StoredRunRequest;
  inputNodeIds: string[];
  target: RunTarget;
  /** The thread to continue, if the client named one. */
  threadId: string | null;
}

const PROMPT_TYPES = ["generation", "ensemble", "validation"] as const;

/**
 * Size and shape checks on a run request, before any database work. Whether input contents name
 * input nodes of this workflow is checked against the graph (see run-start.transaction.ts).
 */
export function checkRunRequest(input: ResolvedRunInput | null | undefined): Outcome<CheckedRequest> {
  const errors: UserError[] = [];
  const request: StoredRunRequest = { streamTokens: input?.streamTokens ?? false };
  if (!input) return { ok: true, value: { request, inputNodeIds: [], target: { kind: "latest" }, threadId: null } };
  const tooLong = (value: string, max: number, path: string[]) => {
    if (value.length > max) {
      errors.push(userError("LIMIT_EXCEEDED", `${path.join(".")} is ${value.length} characters; the limit is ${max}`, { path }));
    }
  };
  if (input.prompts) {
    const prompts: Record<string, string> = {};
    for (const type of PROMPT_TYPES) {
      const text = input.prompts[type];
      if (text === undefined || text === null) continue;
      tooLong(text, LIMITS.maxPromptLength, ["input", "prompts", type]);
      prompts[type] = text;
    }
    request.prompts = prompts;
  }
  if (input.outputFormat !== undefined && input.outputFormat !== null) {
    tooLong(input.outputFormat, LIMITS.maxPromptLength, ["input", "outputFormat"]);
    request.outputFormat = input.outputFormat;
  }
  if (input.knowledgeBase !== undefined && input.knowledgeBase !== null) {
    tooLong(input.knowledgeBase, LIMITS.maxIdLength, ["input", "knowledgeBase"]);
    request.knowledgeBase = input.knowledgeBase.trim() === "" ? null : input.knowledgeBase.trim();
  }
  if (input.intensity) request.intensity = input.intensity;
  if (input.stateEvents) request.stateEvents = true;
  if (input.inputs) request.inputs = checkInputs(input.inputs, errors);
  const inputNodeIds = (input.inputs ?? []).map((entry) => entry.nodeId);
  const target = readTarget(input, errors);
  const threadId = input.threadId ?? null;
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { request, inputNodeIds, target, threadId } };
}

function readTarget(input: ResolvedRunInput, errors: UserError[]): RunTarget {
  const version = input.version ?? null;
  if (version !== null && input.draft) {
    errors.push(userError("VALIDATION_FAILED", "a run executes either a published version or the draft, not both", { path: ["input", "draft"] }));
  }
  if (version !== null && !(Number.isSafeInteger(version) && version >= 1)) {
    errors.push(userError("VALIDATION_FAILED", "version must be a version number, 1 or more", { path: ["input", "version"] }));
  }
  if (version !== null) return { kind: "version", number: version };
  return input.draft ? { kind: "draft" } : { kind: "latest" };
}

function checkInputs(inputs: { nodeId: string; content: string }[], errors: UserError[]): Record<string, string> {
  if (inputs.length > LIMITS.maxNodes) {
    errors.push(
      userError("LIMIT_EXCEEDED", `${inputs.length} input contents given; the limit is ${LIMITS.maxNodes}`, {
        path: ["input", "inputs"],
      }),
    );
    return {};
  }
  // No prototype: a node id such as "__proto__" must stay an ordinary key.
  const contents = Object.create(null) as Record<string, string>;
  inputs.forEach((entry, index) => {
    const path = ["input", "inputs", String(index)];
    if (entry.nodeId.length > LIMITS.maxIdLength) {
      errors.push(userError("LIMIT_EXCEEDED", `nodeId is longer than ${LIMITS.maxIdLength} characters`, { path: [...path, "nodeId"] }));
      return;
    }
    if (Object.hasOwn(contents, entry.nodeId)) {
      errors.push(userError("VALIDATION_FAILED", `content for node "${entry.nodeId.slice(0, 80)}" is given twice`, { nodeIds: [entry.nodeId], path: [...path, "nodeId"] }));
    }
    if (entry.content.length > LIMITS.maxContentLength) {
      errors.push(
        userError("LIMIT_EXCEEDED", `content is ${entry.content.length} characters; the limit is ${LIMITS.maxContentLength}`, {
          nodeIds: [entry.nodeId],
          path: [...path, "content"],
        }),
      );
    }
    contents[entry.nodeId] = entry.content;
  });
  return contents;
}
