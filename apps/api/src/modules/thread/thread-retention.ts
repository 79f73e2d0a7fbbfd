import type { ThreadRetention } from "@weft/engine";
import type { Env } from "../../env.js";
import type { Prisma } from "../../generated/prisma/client.js";

/** The retention limits of the configuration (0 turns a limit off). */
export function threadRetention(env: Pick<Env, "WEFT_THREAD_MAX_MESSAGES" | "WEFT_THREAD_MAX_AGE_DAYS">): ThreadRetention {
  return {
    maxMessages: env.WEFT_THREAD_MAX_MESSAGES > 0 ? env.WEFT_THREAD_MAX_MESSAGES : null,
    maxAgeSeconds: env.WEFT_THREAD_MAX_AGE_DAYS > 0 ? env.WEFT_THREAD_MAX_AGE_DAYS * 86_400 : null,
  };
}

/**
 * The messages of a thread retention still keeps, as a `where`: younger than the age limit. Reads apply
 * it, so an expired message is never shown or read into a prompt, even before the thread's next turn
 * removes it; the count limit is applied when a turn is added, the only time a thread grows.
 */
export function retainedMessagesWhere(threadId: string, retention: ThreadRetention, now: Date): Prisma.ThreadMessageWhereInput {
  return retention.maxAgeSeconds === null ? { threadId } : { threadId, createdAt: { gte: new Date(now.getTime() - retention.maxAgeSeconds * 1000) } };
}
