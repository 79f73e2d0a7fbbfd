"use client";

import { useCallback, useState } from "react";
import { useMutation } from "urql";
import type { UserErrorFieldsFragment } from "@/gql/graphql";
import { SendTurnMutation } from "./threads.operations";

export type TurnOutcome = { ok: true; runId: string; threadId: string | null } | { ok: false; errors: readonly UserErrorFieldsFragment[]; transport: string | null };

/** Sends one turn: a run of the workflow on the thread (a new thread when there is none yet). */
export function useTurn(workflowId: string, threadId: string | null) {
  const [sending, setSending] = useState(false);
  const [, send] = useMutation(SendTurnMutation);
  const sendTurn = useCallback(
    async (contents: readonly { nodeId: string; content: string }[]): Promise<TurnOutcome> => {
      setSending(true);
      const result = await send({ workflowId, input: { streamTokens: true, inputs: [...contents], ...(threadId ? { threadId } : {}) } });
      setSending(false);
      const payload = result.data?.runWorkflow;
      if (result.error) return { ok: false, errors: [], transport: result.error.message };
      if (!payload?.run || payload.errors.length > 0) return { ok: false, errors: payload?.errors ?? [], transport: null };
      return { ok: true, runId: payload.run.id, threadId: payload.run.threadId ?? null };
    },
    [send, threadId, workflowId],
  );
  return { sending, sendTurn };
}
