import { describe, expect, it } from 'vitest';
import { shareHammer } from './hammer-share.ts';

describe('shareHammer', () => {
  it('gives one hammer two strategies per core and splits them between concurrent hammers', () => {
    const first = shareHammer(2);
    expect(first.strategies).toBe(4);
    const second = shareHammer(2);
    expect(second.strategies).toBe(2);
    first.release();
    first.release(); // idempotent
    second.release();
    const alone = shareHammer(2);
    expect(alone.strategies).toBe(4);
    alone.release();
  });

  it('never goes below one strategy', () => {
    const many = Array.from({ length: 10 }, () => shareHammer(1));
    expect(many.at(-1)?.strategies).toBe(1);
    many.forEach((s) => s.release());
  });
});
