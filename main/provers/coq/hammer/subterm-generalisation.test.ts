import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoqc } from '../../../fidelity/run-coqc.ts';
import { Shell } from '../../../shell/shell.ts';
import { createProverEngineFactory, loadBackend, type EngineFactory } from '../../../supervisor/engine-factory.ts';
import { quoteArgument } from '../../../../shared/protocol/quote-argument.ts';
import type { ShellResponse } from '../../../../shared/protocol/shell-command.ts';
import { compoundSubterms, fertilised, subtermConjectures } from './subterm-generalisation.ts';

/** A list reversal through its own `snoc`: no library lemma is about them, and no discovery template fits. */
const SNOC = 'Fixpoint snoc (l : list nat) (x : nat) : list nat := match l with [] => [x] | h :: t => h :: snoc t x end.';
const REVERSE = 'Fixpoint reverse (l : list nat) : list nat := match l with [] => [] | h :: t => snoc (reverse t) h end.';

describe('subterm generalisation (pure)', () => {
  const stuck = {
    context: [{ name: 'a', kind: 'var' as const, text: 'nat' }, { name: 'l', kind: 'var' as const, text: 'list nat' }, { name: 'IHl', kind: 'hyp' as const, text: 'reverse (reverse l) = l' }],
    goal: 'reverse (snoc (reverse l) a) = a :: l',
  };

  it('cross-fertilises with the induction hypothesis, then generalises the subterm both sides share', () => {
    expect(fertilised(stuck)).toEqual(['reverse (snoc (reverse l) a) = a :: l', 'reverse (snoc (reverse l) a) = a :: (reverse (reverse l))']);
    expect(compoundSubterms('f (g (h x) [y]) = [y; z]')).toEqual(['h x', '[y]', 'g (h x) [y]', '[y; z]']);
    const cs = subtermConjectures(stuck, new Map([['reverse l', 'list nat'], ['snoc (reverse l) a', 'list nat']]), new Set(), 'reverse');
    expect(cs.map((c) => c.statement)).toEqual(['forall (x : list nat) (a : nat), reverse (snoc x a) = a :: (reverse x)']);
    expect(cs[0]?.binders).toEqual([{ name: 'x', sort: 'list-nat' }, { name: 'a', sort: 'nat' }]);
  });

  it('an accumulator\'s stuck step: the list literal both sides share becomes the accumulator', () => {
    const acc = { context: [{ name: 'a', kind: 'var' as const, text: 'nat' }, { name: 'l', kind: 'var' as const, text: 'list nat' }], goal: 'itrev l [a] = reverse l ++ [a]' };
    expect(subtermConjectures(acc, new Map([['[a]', 'list nat']]), new Set(['x']), 'itrev').map((c) => c.statement))
      .toEqual(['forall (x0 : list nat) (l : list nat), itrev l x0 = reverse l ++ x0']);
  });

  it('a subterm on one side only, or without a variable, or untyped, is not generalised', () => {
    expect(subtermConjectures({ context: [{ name: 'n', kind: 'var', text: 'nat' }], goal: 'f (g n) = h n' }, new Map([['g n', 'nat']]), new Set(), 'f')).toEqual([]);
    expect(subtermConjectures({ context: [{ name: 'n', kind: 'var', text: 'nat' }], goal: 'f (g 1) n = g 1' }, new Map(), new Set(), 'f')).toEqual([]);
  });
});

/** Real coqidetop: a goal whose induction is stuck, closed only with a lemma generalised from the stuck subgoal. */
describe('subterm generalisation in HAMMER (real coqidetop)', () => {
  let factory: EngineFactory;
  let shell: Shell;
  const run = async (line: string): Promise<ShellResponse> => {
    const [r] = await Promise.all(shell.submitLine(line));
    return r as ShellResponse;
  };

  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  }, 60_000);
  afterAll(async () => {
    await shell?.close();
    await factory?.dispose();
  });

  it('reverse twice: induction leaves reverse (snoc (reverse l) a) = a :: l; the lemma generalising reverse l closes it, checked by coqc', async () => {
    expect((await run(`DEFINE ${quoteArgument(`${SNOC} ${REVERSE}`)}`)).ERR).toBe('');
    expect((await run(`GOAL ${quoteArgument('forall l, reverse (reverse l) = l')}`)).ERR).toBe('');
    // Discovery's slice is a quarter of the budget, after the templates' conjectures: 60 s leaves it room at load ~20.
    const h = await run('HAMMER 60');
    expect(h.ERR).toBe('');
    const report = h.HAMMER_REPORT!;
    // Only the generalised lemma closed it: no other stage did.
    expect(report.stages.filter((s) => s.stage !== 'discovery').every((s) => s.outcome !== 'closed')).toBe(true);
    expect(report.stages).toContainEqual(expect.objectContaining({ stage: 'discovery', outcome: 'closed', tactic: expect.stringMatching(/^assert \(\S+ : forall .*reverse \(snoc \S+ \S+\) = \S+ :: \(?reverse \S+?\)?\)$/) }));
    const end = await run('END');
    expect(end.ERR).toBe('');
    const theorem = [...(end.SCRIPT ?? '').matchAll(/^Theorem (\S+) :/gm)].at(-1)?.[1] ?? 'arbor_goal';
    const checked = await runCoqc(`${end.SCRIPT ?? ''}\nPrint Assumptions ${theorem}.\n`, { killAfterMs: 120_000 });
    expect(checked.ok && /Closed under the global context/.test(checked.output)).toBe(true);
  }, 240_000);
});
