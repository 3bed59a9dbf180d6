/** The benchmark's deterministic problem sample: `--sample N --seed S` picks the same lines every time. */

/** mulberry32 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** N lines chosen by a seeded Fisher-Yates shuffle, kept in file order. */
export function sampleLines<T>(all: readonly T[], n: number, seed: number): T[] {
  const rand = rng(seed);
  const idx = all.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j] as number, idx[i] as number];
  }
  return idx.slice(0, n).sort((a, b) => a - b).map((i) => all[i] as T);
}
