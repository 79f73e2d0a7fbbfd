/**
 * Undo and redo on a body's canvas. A map's or subgraph's body is a local draft saved whole (with the
 * owner's config, which the workflow's own history records), so its edits are undone locally: each edit
 * commits the body as it then is, and undo and redo move along those states. Pure; states are the
 * body's JSON text (nodes with positions, edges, loops), so equal bodies compare equal.
 */

export interface BodyTimeline {
  /** Oldest first; `index` is the state the canvas shows. */
  states: readonly string[];
  index: number;
}

/** The most states kept, the one shown included; the oldest go first. */
export const BODY_HISTORY_LIMIT = 100;

export const startTimeline = (state: string): BodyTimeline => ({ states: [state], index: 0 });

/** An edit: the new state follows the one shown, and what had been undone can no longer be redone. An edit that changed nothing is no step. */
export function commitState(timeline: BodyTimeline, state: string): BodyTimeline {
  if (timeline.states[timeline.index] === state) return timeline;
  const states = [...timeline.states.slice(0, timeline.index + 1), state].slice(-BODY_HISTORY_LIMIT);
  return { states, index: states.length - 1 };
}

/** The state before the one shown, and the timeline that shows it; null at the first. */
export function stepBack(timeline: BodyTimeline): { state: string; timeline: BodyTimeline } | null {
  if (timeline.index === 0) return null;
  const index = timeline.index - 1;
  return { state: timeline.states[index]!, timeline: { ...timeline, index } };
}

/** The state after the one shown (an undone edit), and the timeline that shows it; null at the last. */
export function stepForward(timeline: BodyTimeline): { state: string; timeline: BodyTimeline } | null {
  if (timeline.index >= timeline.states.length - 1) return null;
  const index = timeline.index + 1;
  return { state: timeline.states[index]!, timeline: { ...timeline, index } };
}
