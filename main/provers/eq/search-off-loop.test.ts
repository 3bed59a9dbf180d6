import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { Shell } from '../../shell/shell.ts';
import { createProverEngineFactory } from '../../supervisor/engine-factory.ts';
import { eqBackend } from './eq-backend.ts';

describe('the equational search runs off the host event loop (worker thread)', () => {
  it('another channel is answered while HAMMER searches; the timer keeps ticking', async () => {
    const factory = createProverEngineFactory(eqBackend, { backend: 'eq', timeoutMs: 10_000, poolSize: 0 });
    const shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    try {
      const order: string[] = [];
      await Promise.all(shell.submitLine('NEW_CHANNEL; 1 GOAL "x * y = y * x"'));
      // Not a theorem of loops: the search runs its whole budget.
      const hammer = shell.submitLine('1 HAMMER 4')[0] as Promise<ShellResponse>;
      void hammer.then(() => order.push('hammer'));
      // While it runs, the host's event loop must serve timers and other channels.
      let ticks = 0;
      const timer = setInterval(() => { ticks++; }, 50);
      await new Promise((r) => setTimeout(r, 1000));
      const state = await shell.submitLine('0 GOAL "e * x = x"')[0];
      order.push('other channel');
      clearInterval(timer);
      expect(state?.ERR).toBe('');
      const done = await hammer;
      expect(done.ERR).toMatch(/^(timeout|fail)/);
      expect(order).toEqual(['other channel', 'hammer']);
      expect(ticks).toBeGreaterThan(5);
    } finally {
      await shell.close();
      await factory.dispose();
    }
  }, 60_000);
});
