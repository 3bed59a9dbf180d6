import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { isEquation, premiseTactics, rankPremises, searchableConstants, searchSentence } from './premise-selection.ts';

describe('premise selection (pure)', () => {
  it('searches the rare constants, never the ubiquitous ones, the document\'s own first', () => {
    expect(searchableConstants(['eq', 'nat', 'Coq.Init.Nat.add', 'dbl', 'S', 'Coq.Lists.List.rev', 'plus\''])).toEqual(['dbl', 'plus\'', 'Coq.Init.Nat.add', 'Coq.Lists.List.rev']);
    // Names are data: nothing that is not an identifier reaches a sentence.
    expect(searchableConstants(['x. Redirect "f" Print nat', 'ok'])).toEqual(['ok']);
    expect(searchSentence('a.b', 2)).toBe('Timeout 2 Search a.b.');
    expect(searchSentence('a. Cd "/"', 2)).toBeUndefined();
  });

  it('ranks by shared constants, a rare constant weighing more than a common one', () => {
    const found = new Map([
      ['dbl', [{ name: 'dbl_plus', type: 'forall n, dbl n = n + n' }, { name: 'dbl_S', type: 'forall n, dbl (S n) = S (S (dbl n))' }]],
      ['Nat.add', Array.from({ length: 40 }, (_, i) => ({ name: `add_${i}`, type: `forall n m, n + m = m + n + ${i}` })).concat([{ name: 'dbl_plus', type: 'forall n, dbl n = n + n' }])],
    ]);
    const ranked = rankPremises(found, 3);
    expect(ranked[0]?.name).toBe('dbl_plus');
    expect(ranked[1]?.name).toBe('dbl_S');
    expect(rankPremises(found, 3, new Set(['dbl_plus']))[0]?.name).toBe('dbl_S');
    expect(rankPremises(new Map(), 3)).toEqual([]);
  });

  it('knows an equation from an implication or an order', () => {
    expect(isEquation('forall n : nat, dbl n = n + n')).toBe(true);
    expect(isEquation('forall n m : nat, n <= m -> f n = f m')).toBe(true);
    expect(isEquation('forall n : nat, n <= n + 1')).toBe(false);
    expect(isEquation('forall l : list nat, length l = 0 -> l = []')).toBe(true);
    expect(isEquation('forall n, (n = 0) -> P n')).toBe(false);
    expect(premiseTactics([{ name: 'a', type: 'forall n, a n = 0' }, { name: 'b', type: 'P -> Q' }])).toEqual([
      'solve [hauto use: a, b]',
      'solve [intros; simpl in *; do 2 (rewrite ?a in *); simpl in *; (lia || congruence || reflexivity || auto)]',
      'solve [intros; eauto using a, b]',
      'solve [sauto use: a, b]',
    ]);
  });
});

/** With real coqidetop: a lemma far back in the document (not among the last twelve) is found by its constants. */
describe('premise selection in HAMMER (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '30', '--max-channels', '4']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  it('closes a goal with the one earlier lemma about an opaque constant, named in the report, and the kernel accepts it', async () => {
    const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    // K is opaque (its value hides behind a Qed): no decision procedure, induction or rewrite database knows K > 5.
    await shell.request(`${c} DEFINE "Lemma bound : {k : nat | k > 5}. Proof. exists 6. auto. Qed. Definition K := proj1_sig bound."`, c);
    await shell.request(`${c} GOAL K_gt "K > 5"`, c);
    await shell.request(`${c} APPLY (unfold K; destruct bound; simpl; assumption)`, c);
    expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    // Twelve unrelated lemmas after it, so the last-twelve rule of the rewrite stage cannot see it.
    for (let i = 0; i < 13; i++) {
      await shell.request(`${c} GOAL "forall n : nat, n + ${i} >= ${i}"`, c);
      expect((await shell.request(`${c} APPLY (intros; lia)`, c)).ERR).toBe('');
      expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    }
    await shell.request(`${c} GOAL "forall m, m + K + K > 10 + m"`, c);
    const r = await shell.request(`${c} HAMMER 30`, c);
    expect(r.ERR).toBe('');
    const closed = r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed');
    // Either premise selection finds K_gt, or (since unfold-definitions.ts) unfolding K shows `proj1_sig bound`
    // and `hauto use: bound` closes it: both close it with an earlier lemma of the document, named in the report.
    if (closed?.stage === 'premises') {
      expect(r.HAMMER_REPORT?.stages.find((s) => s.stage === 'premises' && s.outcome === 'progress')?.detail).toMatch(/\bK_gt\b/);
    } else {
      expect(closed).toMatchObject({ stage: 'sauto', tactic: expect.stringMatching(/unfold K\b.*\buse: bound\b/) as unknown });
    }
    const end = await shell.request(`${c} END`, c);
    expect(end.ERR).toBe('');
    expect(end.ASSUMPTIONS).toEqual([]);
  }, 240_000);

  it('uses a chosen lemma inside an induction step (the document proved it long before), and the kernel accepts it', async () => {
    const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    await shell.request(`${c} DEFINE "Fixpoint myrev (l : list nat) : list nat := match l with [] => [] | x :: t => myrev t ++ [x] end."`, c);
    await shell.request(`${c} GOAL myrev_snoc "forall l x, myrev (l ++ [x]) = x :: myrev l"`, c);
    expect((await shell.request(`${c} APPLY (induction l; intros; simpl; [reflexivity | rewrite IHl; reflexivity])`, c)).ERR).toBe('');
    expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    for (let i = 0; i < 13; i++) {
      await shell.request(`${c} GOAL "forall l : list nat, length l + ${i} >= ${i}"`, c);
      expect((await shell.request(`${c} APPLY (intros; lia)`, c)).ERR).toBe('');
      expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    }
    await shell.request(`${c} GOAL "forall l, myrev (myrev l) = l"`, c);
    const r = await shell.request(`${c} HAMMER 30`, c);
    expect(r.ERR).toBe('');
    const closed = r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed');
    expect(closed?.stage).toBe('induction');
    expect(closed?.tactic).toMatch(/myrev_snoc/);
    expect((await shell.request(`${c} END`, c)).ASSUMPTIONS).toEqual([]);
  }, 240_000);
});
