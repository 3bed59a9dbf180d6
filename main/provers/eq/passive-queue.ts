/**
 * The passive set: a binary heap on (priority, age) plus a FIFO of the same entries, so selection can
 * interleave "best first" with "oldest first" at a fixed ratio (fairness: every pair is selected
 * eventually). Entries are marked `done` when taken by either side and skipped by the other.
 */
export interface Queued {
  priority: number;
  age: number;
  done: boolean;
}

export class PassiveQueue<P extends Queued> {
  private readonly heap: P[] = [];
  private fifo: P[] = [];
  private fifoHead = 0;
  private taken = 0;

  constructor(private readonly fifoEvery: number) {}

  get size(): number {
    return this.heap.length;
  }

  private less(x: P, y: P): boolean {
    return x.priority < y.priority || (x.priority === y.priority && x.age < y.age);
  }

  push(p: P): void {
    const a = this.heap;
    a.push(p);
    let i = a.length - 1;
    while (i > 0) {
      const j = (i - 1) >> 1;
      if (!this.less(a[i] as P, a[j] as P)) break;
      [a[i], a[j]] = [a[j] as P, a[i] as P];
      i = j;
    }
    this.fifo.push(p);
  }

  private popHeap(): P | undefined {
    const a = this.heap;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l] as P, a[m] as P)) m = l;
        if (r < a.length && this.less(a[r] as P, a[m] as P)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as P, a[i] as P];
        i = m;
      }
    }
    return top;
  }

  pop(): P | undefined {
    this.taken++;
    if (this.fifoEvery > 0 && this.taken % this.fifoEvery === 0) {
      while (this.fifoHead < this.fifo.length) {
        const p = this.fifo[this.fifoHead++] as P;
        if (!p.done) {
          p.done = true;
          return p;
        }
      }
    }
    for (;;) {
      const p = this.popHeap();
      if (!p) return undefined;
      if (p.done) continue;
      p.done = true;
      if (this.fifoHead > 4096 && this.fifoHead * 2 > this.fifo.length) {
        this.fifo = this.fifo.slice(this.fifoHead);
        this.fifoHead = 0;
      }
      return p;
    }
  }
}
