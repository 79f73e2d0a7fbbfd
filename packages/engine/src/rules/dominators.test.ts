import { describe, expect, it } from "vitest";
import { seededRandom } from "../random/seeded-random.js";
import { computeDominators, type Rows } from "./dominators.js";

function rows(size: number, pairs: readonly (readonly [number, number])[]): { succ: Rows; pred: Rows } {
  const group = (key: 0 | 1): Rows => {
    const start = new Int32Array(size + 1);
    const lists = Array.from({ length: size }, () => [] as number[]);
    for (const pair of pairs) lists[pair[key]]!.push(pair[1 - key]!);
    lists.forEach((list, k) => (start[k + 1] = start[k]! + list.length));
    return { start, list: Int32Array.from(lists.flat()) };
  };
  return { succ: group(0), pred: group(1) };
}

/** The definition: `a` dominates `b` when `b` is reached from the root and not once `a` is taken out. */
function dominatesByDefinition(size: number, pairs: readonly (readonly [number, number])[], root: number, a: number, b: number): boolean {
  const reached = (removed: number) => {
    const seen = new Set<number>(removed === root ? [] : [root]);
    const queue = removed === root ? [] : [root];
    for (let head = 0; head < queue.length; head += 1) {
      for (const [from, to] of pairs) {
        if (from !== queue[head] || to === removed || seen.has(to)) continue;
        seen.add(to);
        queue.push(to);
      }
    }
    return seen;
  };
  return reached(-1).has(b) && (a === b || !reached(a).has(b));
}

describe("computeDominators", () => {
  it("finds the immediate dominators of a diamond with a way back", () => {
    //   0 ─► 1 ─► 3 ─► 4
    //   └──► 2 ──┘ ◄───┘   (4 ─► 3 goes back; 5 is not reached)
    const pairs = [[0, 1], [0, 2], [1, 3], [2, 3], [3, 4], [4, 3]] as const;
    const { succ, pred } = rows(6, pairs);
    const tree = computeDominators(6, succ, pred, 0);
    expect([...tree.idom]).toEqual([0, 0, 0, 0, 3, -1]);
    expect(tree.dominates(3, 4)).toBe(true);
    expect(tree.dominates(1, 3)).toBe(false);
    expect(tree.reaches(5)).toBe(false);
    expect(tree.common(1, 4)).toBe(0);
    expect(tree.childToward(0, 4)).toBe(3);
  });

  it("agrees with the definition of dominance on random graphs, cycles included", () => {
    const random = seededRandom(8);
    for (let trial = 0; trial < 300; trial += 1) {
      const size = 2 + Math.floor(random() * 12);
      const pairs: [number, number][] = [];
      const count = Math.floor(random() * size * 2.5);
      for (let k = 0; k < count; k += 1) pairs.push([Math.floor(random() * size), Math.floor(random() * size)]);
      const { succ, pred } = rows(size, pairs);
      const tree = computeDominators(size, succ, pred, 0);
      for (let a = 0; a < size; a += 1) {
        for (let b = 0; b < size; b += 1) {
          const expected = dominatesByDefinition(size, pairs, 0, a, b) && dominatesByDefinition(size, pairs, 0, a, a);
          expect(tree.dominates(a, b), `trial ${trial}: ${a} dominates ${b} in ${JSON.stringify(pairs)}`).toBe(expected);
        }
      }
    }
  });
});
