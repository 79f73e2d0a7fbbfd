"use client";

import { useSocketFeed } from "@/lib/use-socket-feed";
import { RunStatusChangedSubscription } from "../runs.operations";

/**
 * Follows runStatusChanged (optionally for one workflow) and calls `onChange` for every change and
 * after every (re)connection, since changes made while disconnected are not replayed. Returns whether
 * the feed is connected.
 */
export function useRunStatusFeed(workflowId: string | null, onChange: () => void): boolean {
  return useSocketFeed(RunStatusChangedSubscription, workflowId ? { workflowId } : {}, { onData: onChange, onConnected: onChange });
}
