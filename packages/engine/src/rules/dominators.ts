/**
 * Immediate dominators of a graph whose nodes are 0..n-1, from `root` (Cooper, Harvey & Kennedy, "A
 * Simple, Fast Dominance Algorithm", 2001): iterate `idom(b) = ⋂ idom(preds)` in reverse postorder
 * until nothing changes. On an acyclic graph one pass suffices, and for the reducible graphs loops
 * need it converges in two or three, so in practice this is linear. No recursion: depth-first order is
 * built with an explicit stack, so 10,000-node chains are fine.
 */
export interface DominatorTree {
  /** Immediate dominator of each node; the root's is itself; -1 for nodes the root does not reach. */
  readonly idom: Int32Array;
  /** Whether `a` dominates `b` (every path from the root to `b` passes `a`), in O(1). */
  dominates(a: number, b: number): boolean;
  /** Whether the root reaches the node. */
  reaches(node: number): boolean;
  /** The child of `ancestor` on the dominator-tree path down to `node` (ancestor ≠ node, ancestor dominates node). */
  childToward(ancestor: number, node: number): number;
  /** Lowest common dominator of two reached nodes. */
  common(a: number, b: number): number;
}

/** Adjacency in compressed rows: the neighbours of node k are `list[start[k] .. start[k + 1])`. */
export interface Rows {
  readonly start: Int32Array;
  readonly list: Int32Array;
}

export function computeDominators(size: number, succ: Rows, pred: Rows, root: number): DominatorTree {
  const order = reversePostorder(size, succ, root);
  const rank = new Int32Array(size).fill(-1);
  for (let k = 0; k < order.length; k += 1) rank[order[k]!] = k;
  const idom = new Int32Array(size).fill(-1);
  idom[root] = root;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rank[a]! > rank[b]!) a = idom[a]!;
      while (rank[b]! > rank[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = 1; k < order.length; k += 1) {
      const node = order[k]!;
      let candidate = -1;
      for (let slot = pred.start[node]!; slot < pred.start[node + 1]!; slot += 1) {
        const p = pred.list[slot]!;
        if (idom[p] === -1) continue;
        candidate = candidate === -1 ? p : intersect(p, candidate);
      }
      if (candidate !== -1 && idom[node] !== candidate) {
        idom[node] = candidate;
        changed = true;
      }
    }
  }
  return treeQueries(size, idom, root);
}

/** Nodes reached from the root, in reverse postorder of a depth-first search. */
function reversePostorder(size: number, succ: Rows, root: number): Int32Array {
  const visited = new Uint8Array(size);
  const post = new Int32Array(size);
  let done = 0;
  const stackNode = new Int32Array(size);
  const stackNext = new Int32Array(size);
  let depth = 0;
  stackNode[0] = root;
  stackNext[0] = succ.start[root]!;
  visited[root] = 1;
  while (depth >= 0) {
    const node = stackNode[depth]!;
    if (stackNext[depth]! >= succ.start[node + 1]!) {
      post[done++] = node;
      depth -= 1;
      continue;
    }
    const next = succ.list[stackNext[depth]!]!;
    stackNext[depth]! += 1;
    if (visited[next] === 0) {
      visited[next] = 1;
      depth += 1;
      stackNode[depth] = next;
      stackNext[depth] = succ.start[next]!;
    }
  }
  return post.subarray(0, done).reverse();
}

/** Pre/post numbers of the dominator tree answer "a dominates b" in O(1). */
function treeQueries(size: number, idom: Int32Array, root: number): DominatorTree {
  // Children in compressed rows: first[k]..first[k + 1] index `child`.
  const first = new Int32Array(size + 1);
  for (let node = 0; node < size; node += 1) if (node !== root && idom[node] !== -1) first[idom[node]! + 1]! += 1;
  for (let k = 0; k < size; k += 1) first[k + 1]! += first[k]!;
  const fill = first.slice(0, size);
  const child = new Int32Array(first[size]!);
  for (let node = 0; node < size; node += 1) if (node !== root && idom[node] !== -1) child[fill[idom[node]!]!++] = node;
  const enter = new Int32Array(size).fill(-1);
  const leave = new Int32Array(size).fill(-1);
  const depth = new Int32Array(size);
  const stackNode = new Int32Array(size);
  const stackNext = new Int32Array(size);
  let clock = 0;
  let top = 0;
  stackNode[0] = root;
  stackNext[0] = first[root]!;
  enter[root] = clock++;
  while (top >= 0) {
    const node = stackNode[top]!;
    if (stackNext[top]! >= first[node + 1]!) {
      leave[node] = clock++;
      top -= 1;
      continue;
    }
    const next = child[stackNext[top]!]!;
    stackNext[top]! += 1;
    depth[next] = depth[node]! + 1;
    enter[next] = clock++;
    top += 1;
    stackNode[top] = next;
    stackNext[top] = first[next]!;
  }
  const dominates = (a: number, b: number) => enter[a]! !== -1 && enter[b]! !== -1 && enter[a]! <= enter[b]! && leave[b]! <= leave[a]!;
  return {
    idom,
    dominates,
    reaches: (node) => enter[node]! !== -1,
    childToward: (ancestor, node) => {
      let current = node;
      while (idom[current] !== ancestor) current = idom[current]!;
      return current;
    },
    common: (a, b) => {
      let x = a;
      let y = b;
      while (depth[x]! > depth[y]!) x = idom[x]!;
      while (depth[y]! > depth[x]!) y = idom[y]!;
      while (x !== y) {
        x = idom[x]!;
        y = idom[y]!;
      }
      return x;
    },
  };
}
