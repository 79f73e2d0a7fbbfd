/** Where a new node goes: the wanted spot, or the first spot below it that no node covers. */
export const NODE_BOX = { width: 180, height: 110 };
const GAP = 24;

export function findFreePosition(
  taken: readonly { x: number; y: number }[],
  wanted: { x: number; y: number },
  maxTries = 50,
): { x: number; y: number } {
  const overlaps = (spot: { x: number; y: number }) =>
    taken.some((other) => Math.abs(other.x - spot.x) < NODE_BOX.width + GAP && Math.abs(other.y - spot.y) < NODE_BOX.height + GAP);
  let spot = { x: Math.round(wanted.x), y: Math.round(wanted.y) };
  for (let tries = 0; tries < maxTries && overlaps(spot); tries++) {
    // Walk down one row at a time; every fifth row, start a new column to the right.
    spot = tries % 5 === 4 ? { x: spot.x + NODE_BOX.width + GAP, y: Math.round(wanted.y) } : { x: spot.x, y: spot.y + NODE_BOX.height + GAP };
  }
  return spot;
}
