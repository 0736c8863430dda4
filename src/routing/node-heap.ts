/**
 * Binary min-heap of (key, node) in typed arrays, grown on demand: the open set of the searches over the
 * sea-lane graph (sim/lanes.ts) and over the land grid (land-check.ts). Nodes are int32.
 */
export class NodeHeap {
  private keys: Float64Array;
  private nodes: Int32Array;
  size = 0;

  constructor(capacity = 16) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.nodes = new Int32Array(Math.max(16, capacity));
  }

  push(key: number, node: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const nodes = new Int32Array(this.size * 2);
      nodes.set(this.nodes);
      this.nodes = nodes;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[i] = this.keys[parent]!;
      this.nodes[i] = this.nodes[parent]!;
      i = parent;
    }
    this.keys[i] = key;
    this.nodes[i] = node;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes the smallest entry and returns its node (call only when size > 0). */
  pop(): number {
    const top = this.nodes[0]!;
    const lastKey = this.keys[--this.size]!;
    const lastNode = this.nodes[this.size]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.keys[c + 1]! < this.keys[c]!) c++;
      if (this.keys[c]! >= lastKey) break;
      this.keys[i] = this.keys[c]!;
      this.nodes[i] = this.nodes[c]!;
      i = c;
    }
    this.keys[i] = lastKey;
    this.nodes[i] = lastNode;
    return top;
  }
}
