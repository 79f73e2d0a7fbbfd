"use client";

import { useCallback, useMemo } from "react";
import { useI18n, useT } from "../../../i18n/i18n-provider";
import { useNodeTypes } from "../../node-types/node-types-context";
import { headerFeedback, nodeBadges } from "../../runs/live/pipeline-events";
import type { useLiveRun } from "../../runs/live/use-live-run";
import type { EditorFlowNode } from "../graph/editor-graph";
import { skipReasonText } from "../../runs/live/skip-reason";
import { runDescriptionIn } from "../../runs/live/run-description.ko";

type LiveState = ReturnType<typeof useLiveRun>["state"];

/**
 * What a run says about each node, drawn on its card: its state, its description (the result for the
 * output node, why it was skipped in words), badges and a loop header's latest feedback. The same for
 * the workflow's canvas and for bodies open on their own canvas (their nodes' events carry their ids).
 */
export function useLiveDecoration(state: LiveState, loopHeaders: ReadonlyMap<string, readonly string[]>, flagged: ReadonlySet<string>) {
  const t = useT();
  const { language } = useI18n();
  const nodeTypes = useNodeTypes();
  const badgeLabels = useMemo(
    () => ({ items: (done: number, total: number) => t("pipeline.live.items", { done, total }), cacheHit: (similarity: number | null) => t("pipeline.live.cacheHit", { similarity: similarity === null ? "" : similarity.toFixed(2) }) }),
    [t],
  );
  return useCallback(
    (nodes: EditorFlowNode[]): EditorFlowNode[] =>
      nodes.map((node) => {
        const live = state.nodes[node.id];
        const status = live?.status;
        const liveText = (nodeTypes.isSink(node.data.node.type) ? live?.output : (live?.description ? runDescriptionIn(language, live.description) : skipReasonText(t, live?.skipReason))) ?? undefined;
        const badges = nodeBadges(state, node.id, badgeLabels);
        const loopFeedback = headerFeedback(state, loopHeaders.get(node.id) ?? []) ?? undefined;
        const isFlagged = flagged.has(node.id) || Boolean(node.data.flagged);
        if (!live && !loopFeedback && !isFlagged && !node.data.status) return node;
        return { ...node, data: { ...node.data, status, flagged: isFlagged, liveText, badges, loopFeedback } } as EditorFlowNode;
      }),
    [state, nodeTypes, t, language, badgeLabels, loopHeaders, flagged],
  );
}
