import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { linearWitnesses } from './hammer-portfolio.ts';

describe('linear witnesses from the goal\'s constants', () => {
  it('divides the constants by a literal divisor', () => {
    expect(linearWitnesses('Nat.divide 4 (8 * n + 12)', ['n'])).toContain('2 * n + 3');
    expect(linearWitnesses('(3 | 6 * k + 9)', ['k'])).toContain('2 * k + 3');
    expect(linearWitnesses('n + 0 = n', [])).toEqual([]);
  });
});

describe('HAMMER\'s witness stage (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '20', '--max-channels', '4', '--pool', '0']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  it('closes Nat.divide 4 (8 * n + 12) with the witness 2 * n + 3', async () => {
    const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    await shell.request(`${c} GOAL "forall n, Nat.divide 4 (8 * n + 12)"`, c);
    const r = await shell.request(`${c} HAMMER 15`, c);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage).toBe('witness');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/exists \(2 \* n \+ 3\)/);
    expect((await shell.request(`${c} END`, c)).ERR).toBe('');
  }, 60_000);
});
