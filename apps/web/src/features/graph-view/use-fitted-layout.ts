"use client";

import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { AutoLayoutEdge, Positions } from "./auto-layout";
import { fitLayout } from "./fit-layout";

/** A card as drawn: its output ports (none for a sink) and its size once ReactFlow has measured it. */
export interface DrawnCard {
  id: string;
  ports: readonly string[];
  width: number | undefined;
  height: number | undefined;
}

export interface FittedView {
  /** ReactFlow's key: it changes when the laid-out cards are ready, so the canvas fits them anew. */
  key: string;
  /** True while the cards are drawn only to be measured (hidden). */
  measuring: boolean;
  positions?: Positions;
  /** The canvas' height when it grew to keep the whole readable. */
  height?: number;
}

/** The share of the window's height a growing canvas may take. */
const MAX_HEIGHT_SHARE = 0.8;

/**
 * Lays the drawn cards out once they are all measured, and again only when the graph's structure changes
 * (new tones or badges during a run keep the layout).
 */
export function useFittedLayout({
  enabled,
  cards,
  edges,
  box,
  whole,
}: {
  enabled: boolean;
  cards: readonly DrawnCard[];
  edges: readonly AutoLayoutEdge[];
  box: RefObject<HTMLDivElement | null>;
  /** Show the whole readable: fold the graph into rows and let the canvas grow (the comparison). Else one row to pan along. */
  whole: boolean;
}): FittedView {
  const structure = useMemo(
    () => JSON.stringify([cards.map((card) => [card.id, card.ports]), edges.map((edge) => [edge.source, edge.target, edge.sourcePort ?? null, edge.loop ?? null])]),
    [cards, edges],
  );
  const measured = cards.length > 0 && cards.every((card) => card.width && card.height);
  const [laidOut, setLaidOut] = useState<{ structure: string; positions: Positions; height: number } | null>(null);
  const latest = useRef({ cards, edges });
  latest.current = { cards, edges };
  const baseHeight = useRef<number | null>(null);
  const ready = laidOut?.structure === structure;
  useEffect(() => {
    if (!enabled || ready || !measured || !box.current) return;
    const rect = box.current.getBoundingClientRect();
    baseHeight.current ??= rect.height;
    const height = baseHeight.current;
    const canvas = { width: rect.width, height, fold: whole, ...(whole ? { maxHeight: Math.max(height, Math.round(window.innerHeight * MAX_HEIGHT_SHARE)) } : {}) };
    const nodes = latest.current.cards.map((card) => ({ id: card.id, ports: card.ports, width: card.width ?? 0, height: card.height ?? 0 }));
    let current = true;
    fitLayout(nodes, latest.current.edges, canvas).then(
      (fitted) => current && setLaidOut({ structure, positions: fitted.positions, height: fitted.height }),
      (error: unknown) => {
        // Shown where the graph placed them rather than not at all; the cause goes to the console.
        console.error("The graph could not be laid out", error);
        if (current) setLaidOut({ structure, positions: new Map(), height });
      },
    );
    return () => {
      current = false;
    };
  }, [enabled, ready, measured, structure, box, whole]);
  if (!enabled) return { key: "given", measuring: false };
  if (!ready) return { key: "measuring", measuring: true };
  return { key: `laid-out:${structure}`, measuring: false, positions: laidOut.positions, height: laidOut.height };
}
