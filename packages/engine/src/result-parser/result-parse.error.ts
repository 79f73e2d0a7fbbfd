import { WeftError } from "../model/errors.js";

/** How much of a rejected reply an error message shows. */
export const REPLY_PREVIEW_LENGTH = 200;

/**
 * A model reply the ResultParser could not use. The message names what was wrong and shows the start
 * of the reply, so the person reading the run (and the model, on a parse-repair attempt) can see why.
 */
export class ResultParseError extends WeftError {
  readonly reason: string;
  readonly replyStart: string;

  constructor(reason: string, reply: string) {
    const replyStart = previewReply(reply);
    super("RESULT_PARSE_ERROR", `the reply could not be parsed: ${reason}. The reply starts with: ${replyStart}`, {
      audience: "operational",
      details: { reason, replyStart },
    });
    this.name = "ResultParseError";
    this.reason = reason;
    this.replyStart = replyStart;
  }
}

function previewReply(reply: string): string {
  if (reply.length <= REPLY_PREVIEW_LENGTH) return JSON.stringify(reply);
  return `${JSON.stringify(reply.slice(0, REPLY_PREVIEW_LENGTH))}… (${reply.length} characters)`;
}
