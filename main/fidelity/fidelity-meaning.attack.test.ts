import { describe, expect, it } from 'vitest';
import { checkFidelity } from './check-fidelity.ts';

/**
 * Fidelity verdicts are judged on the statements as Coq elaborated them in the context (the judge of
 * finished proofs). Attacked with contexts that change a statement's meaning without a `Notation` sentence
 * the judge could see at the top: a `where` clause beside a word of the context's own (broke before the fix
 * in statement-judge.ts), and a notation reached through an Import of the context's own module.
 */
describe('fidelity: a context cannot hide what a statement means', () => {
  it('a Fixpoint\'s where notation: the report says `d + d = d` is about mymul', async () => {
    const report = await checkFidelity({
      canonical: 'd + d = d', candidate: 'True',
      context: 'Definition d := 1. Fixpoint mymul (n m : nat) : nat := match n with O => O | S p => Nat.add m (mymul p m) end where "n + m" := (mymul n m).',
      tiers: ['typecheck'],
    });
    expect(report.statements?.canonical?.elaborated, JSON.stringify(report)).toMatch(/mymul/);
  }, 180_000);

  it('an Import of the context\'s own module: refused (the context runs inside a section), never a silent verdict', async () => {
    await expect(checkFidelity({ canonical: 'False', candidate: 'True', context: 'Module N. Notation "\'False\'" := True. End N. Import N.', tiers: ['typecheck'] })).rejects.toThrow(/Modules/);
  }, 180_000);

  it('a Local Notation inside the section: `False` is shown as True', async () => {
    const report = await checkFidelity({ canonical: 'False', candidate: 'True', context: 'Local Notation "\'False\'" := True.', tiers: ['typecheck'] });
    expect(report.statements?.canonical?.elaborated, JSON.stringify(report)).toBe('Coq.Init.Logic.True');
  }, 180_000);
});
