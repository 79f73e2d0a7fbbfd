/**
 * Keeps run work from starving the process's I/O (SPEC-V3 §1: /healthz answers within a second while
 * any run executes). A node step that needs no I/O (a switch, a template, a join) completes in a
 * microtask, and the next step starts in the same microtask drain: a long chain, or many runs at once,
 * would never let the event loop reach its timers, sockets and database replies. So the process's run
 * work is cut into slices: once the thread has gone SLICE_MS without reaching the event loop, every
 * runner defers its next step to a macrotask (a zero timeout). A slice ends when a zero timeout posted
 * at its start runs, that is when the event loop was reached. One clock for the whole process (module
 * state), so runs interleaved in one drain yield together. With expression budgets (one evaluation of
 * WEFT_MAX_EXPRESSION_COST takes tens of milliseconds) no single step is long either.
 */
export const SLICE_MS = 40;

let sliceStart: number | null = null;

const endSlice = () => {
  sliceStart = null;
};

/** True when run work has held the thread for a whole slice: the caller should continue in a macrotask (nextTurn). */
export function sliceSpent(): boolean {
  const now = performance.now();
  if (sliceStart === null) {
    sliceStart = now;
    setTimeout(endSlice, 0);
    return false;
  }
  return now - sliceStart > SLICE_MS;
}

/** Resolves in a macrotask, after the event loop has had its turn (timers, I/O). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves at once while the slice lasts, else after the event loop's turn: for executors that loop over CPU work. */
export function yieldIfSliceSpent(): Promise<void> {
  return sliceSpent() ? nextTurn() : Promise.resolve();
}
