import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoqFailure, CoqTimeout, CoqideTopClient } from './coqidetop-client.ts';
import { goalCall } from './xml-protocol.ts';
import { splitHyp } from './coq-hyps.ts';

// Real coqidetop, no fakes.
describe('CoqideTopClient', () => {
  let c: CoqideTopClient;
  beforeAll(async () => {
    c = await CoqideTopClient.start();
  });
  afterAll(async () => {
    await c.dispose();
  });

  it('inits, adds on the tip and reads grouped and let-bound hypotheses', async () => {
    expect(c.tip).toBe(1);
    const goalState = await c.add('Goal forall n m : nat, let x := 3 in n + m = m + n -> True.');
    expect((await c.goals()).goals?.[0]?.goal).toBe('forall n m : nat, let x := 3 in n + m = m + n -> True');
    await c.add('intros n m x H.');
    const g = (await c.goals()).goals?.[0];
    expect(g?.hyps).toEqual(['n, m : nat', 'x := 3 : nat', 'H : n + m = m + n']);
    expect(g?.hyps.flatMap((h) => splitHyp(h)).map((h) => h.name)).toEqual(['n', 'm', 'x', 'H']);
    await c.editAt(goalState);
    expect(c.tip).toBe(goalState);
  });

  it('reports execution errors on Goal and recovers with Edit_at', async () => {
    const before = c.tip;
    await c.add('apply no_such_lemma.'); // Add only parses
    const err = await c.goals().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoqFailure);
    expect((err as CoqFailure).message).toMatch(/no_such_lemma was not found/);
    await c.editAt(before);
    await c.add('intros.');
    expect((await c.goals()).goals).toHaveLength(1);
    await c.editAt(before);
  });

  it('rejects unparsable sentences at Add and collects query messages', async () => {
    await expect(c.add('apply (.')).rejects.toBeInstanceOf(CoqFailure);
    const msgs = await c.query('Check (nat, True).');
    expect(msgs.map((m) => m.text.replace(/\s+/g, ' '))).toContain('(nat, True) : Set * Prop');
  });

  it('pipelines Add+Goal in one exchange, failures included', async () => {
    const before = c.tip;
    const ok = await c.addAndGoals('intros.');
    expect(ok.stateId).toBe(c.tip);
    expect(ok.goals).toHaveLength(1);
    await c.editAt(before);
    await expect(c.addAndGoals('apply (.')).rejects.toBeInstanceOf(CoqFailure); // parse error at Add
    expect(c.tip).toBe(before);
    await expect(c.addAndGoals('apply no_such_lemma.')).rejects.toThrow(/not found/); // error at execution
    await c.editAt(before);
    expect((await c.addAndGoals('intros.')).goals).toHaveLength(1);
    await c.editAt(before);
  });

  it('interrupts a runaway call with SIGINT and stays usable', async () => {
    const before = c.tip;
    await c.add('repeat (pose proof I).');
    const err = await c.call(goalCall(), 500).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoqTimeout);
    expect((err as CoqTimeout).killed).toBe(false);
    expect(c.alive).toBe(true);
    await c.editAt(before);
    expect((await c.goals()).goals).toHaveLength(1);
  });

  it('queries the state one sentence past the tip in one exchange and comes back to the tip (queriesAfter)', async () => {
    // A fresh prover at top level, where END asks (inside a proof an Edit_at may use up state ids unseen).
    const c = await CoqideTopClient.start();
    await c.add('Definition one : nat := 1.');
    await c.goals();
    const before = c.tip;
    const [check] = await c.queriesAfter('Set Printing All.', ['Check (fun n : nat => n + 1).']);
    // Under Printing All: the notation is gone, so the query ran at the new state, not at the tip.
    expect(check?.find((m) => m.level === 'notice')?.text).toMatch(/Nat\.add/);
    expect(c.tip).toBe(before);
    expect((await c.query('Check (fun n : nat => n + 1).')).find((m) => m.level === 'notice')?.text).toMatch(/n \+ 1/);
    // A sentence Coq refuses: an error, the tip unchanged, and the next exchange still lines up.
    await expect(c.queriesAfter('Definition bad : nat := true.', ['Check bad.'])).rejects.toBeInstanceOf(Error);
    expect(c.tip).toBe(before);
    const [again] = await c.queriesAfter('Definition good : nat := 2.', ['Print good.']);
    expect(again?.find((m) => m.level === 'notice')?.text).toMatch(/good = 2/);
    expect(c.tip).toBe(before);
    await c.dispose();
  });
});
