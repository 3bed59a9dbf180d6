import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentSession } from '../../../agent/agent-session.ts';
import { HAMMER_SOURCE, hammerLemmaSuggestions } from '../../../agent/hammer-lemma-suggestions.ts';
import { inProcessPort } from '../../../agent/in-process-port.ts';
import { runCoqc } from '../../../fidelity/run-coqc.ts';
import { Shell } from '../../../shell/shell.ts';
import { createProverEngineFactory, loadBackend, type EngineFactory } from '../../../supervisor/engine-factory.ts';
import { quoteArgument } from '../../../../shared/protocol/quote-argument.ts';
import type { ShellResponse } from '../../../../shared/protocol/shell-command.ts';
import { conjectures, fixpointSignatures, instances, linearForm, refutationTactic, splitEquation, topLevelWords } from './lemma-discovery.ts';

const TOTAL = 'Fixpoint total (l : list nat) : nat := match l with [] => 0 | x :: t => x + total t end.';
const REV_INTO = 'Fixpoint rev_into {A : Type} (l acc : list A) : list A := match l with [] => acc | x :: t => rev_into t (x :: acc) end.';
const EVEN = 'Fixpoint even2 (n : nat) : bool := match n with 0 => true | 1 => false | S (S k) => even2 k end.';

describe('lemma discovery: conjectures (pure)', () => {
  it('reads Fixpoint headers: type parameters, parameters, result', () => {
    expect(fixpointSignatures(REV_INTO)).toEqual([{ name: 'rev_into', typeParams: [{ name: 'A', implicit: true }], params: [{ name: 'l', type: 'list A' }, { name: 'acc', type: 'list A' }], returns: 'list A' }]);
    expect(fixpointSignatures('Fixpoint count (x : nat) (l : list nat) {struct l} : nat := 0.')[0]?.params.map((p) => p.name)).toEqual(['x', 'l']);
    expect(fixpointSignatures('Definition d (n : nat) : nat := n.')).toEqual([]);
  });

  it('splits terms at the top level only', () => {
    expect(topLevelWords('rev_into l [] = rev (l ++ [1; 2])')).toEqual(['rev_into', 'l', '[]', '=', 'rev', '(l ++ [1; 2])']);
    expect(splitEquation('f (a = b) = g x')).toEqual(['f (a = b)', 'g x']);
    expect(splitEquation('a <= b')).toBeUndefined();
    expect(linearForm('n + n + 6', new Set(['n']))).toEqual({ coeffs: new Map([['n', 2]]), constant: 6 });
    expect(linearForm('n * m', new Set(['n', 'm']))).toBeUndefined();
  });

  it('distribution over ++ with each combining operator, the other arguments fixed', () => {
    const goal = { vars: [{ name: 'l', type: 'list nat' }], goal: 'total (rev l) = total l' };
    const cs = conjectures(goal, fixpointSignatures(TOTAL), new Set(['l']));
    expect(cs.map((c) => c.statement)).toEqual([
      'forall (l1 : list nat) (l2 : list nat), total (l1 ++ l2) = total l1 + total l2',
      'forall (l1 : list nat) (l2 : list nat), total (l1 ++ l2) = total l1 * total l2',
    ]);
    expect(cs[0]?.name).toBe('total_app');
    const count = fixpointSignatures('Fixpoint count (x : nat) (l : list nat) : nat := 0.');
    expect(conjectures({ vars: [{ name: 'x', type: 'nat' }, { name: 'l', type: 'list nat' }], goal: 'count x (rev l) = count x l' }, count, new Set())[0]?.statement)
      .toBe('forall (x : nat) (l1 : list nat) (l2 : list nat), count x (l1 ++ l2) = count x l1 + count x l2');
    // A function the goal does not mention gives nothing.
    expect(conjectures({ vars: [], goal: 'rev [] = []' }, fixpointSignatures(TOTAL), new Set())).toEqual([]);
  });

  it('accumulator generalisation: the type variable an implicit argument hides is bound too', () => {
    const goal = { vars: [{ name: 'A', type: 'Type' }, { name: 'l', type: 'list A' }], goal: 'rev_into l [] = rev l' };
    const acc = conjectures(goal, fixpointSignatures(REV_INTO), new Set(['A', 'l'])).filter((c) => c.template === 'accumulator');
    expect(acc.map((c) => c.statement)).toEqual([
      'forall (A : Type) (l : list A) acc, rev_into l acc = rev l ++ acc',
      'forall (A : Type) (l : list A) acc, rev_into l acc = acc ++ rev l',
    ]);
    expect(acc[0]?.proofs[0]).toMatch(/^solve \[intros; revert acc; induction l;/);
  });

  it('names of every form Coq allows are data: primes, unicode, a dot-free look-alike (no regular-expression syntax error)', () => {
    const primed = fixpointSignatures("Fixpoint plus' (n m : nat) : nat := match n with 0 => m | S k => S (plus' k m) end.");
    expect(primed[0]?.name).toBe("plus'");
    const goal = { vars: [{ name: 'n', type: 'nat' }], goal: "plus' n 0 = n" };
    expect(() => conjectures(goal, primed, new Set(['n']))).not.toThrow();
    const uni = fixpointSignatures('Fixpoint dbl\u2032 (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl\u2032 k)) end.');
    expect(() => conjectures({ vars: [{ name: 'n', type: 'nat' }], goal: 'dbl\u2032 (n + n) = 0' }, uni, new Set(['n']))).not.toThrow();
    // `a.b` must not match `aXb`: a dot in a name is not a wildcard.
    expect(conjectures({ vars: [{ name: 'l', type: 'list nat' }], goal: 'totalXs (rev l) = totalXs l' }, fixpointSignatures('Fixpoint total.s (l : list nat) : nat := 0.'), new Set(['l']))).toEqual([]);
  });

  it('a compound argument generalised, plainly and as m + m when it is even', () => {
    const cs = conjectures({ vars: [{ name: 'n', type: 'nat' }], goal: 'even2 (n + n + 6) = true' }, fixpointSignatures(EVEN), new Set(['n']));
    expect(cs.map((c) => c.statement)).toEqual(['forall (m : nat), even2 m = true', 'forall (m : nat), even2 (m + m) = true']);
    expect(cs[1]?.closers[0]).toContain('replace (n + n + 6) with ((n + 3) + (n + 3)) by lia');
  });

  it('refutation instances: small values per binder, none for a type it cannot fill', () => {
    expect(instances([{ name: 'A', sort: 'type' }, { name: 'n', sort: 'nat' }])).toEqual([['nat', '0'], ['nat', '1'], ['nat', '2'], ['nat', '3']]);
    expect(instances([{ name: 't', sort: 'other' }])).toBeUndefined();
    expect(instances([{ name: 'a', sort: 'list-nat' }, { name: 'b', sort: 'list-nat' }, { name: 'c', sort: 'nat' }], 12)?.length).toBe(12);
    const [plain] = conjectures({ vars: [{ name: 'n', type: 'nat' }], goal: 'even2 (n + n) = true' }, fixpointSignatures(EVEN), new Set());
    expect(refutationTactic(plain!)).toBe('intro H; first [(specialize (H 0); vm_compute in H; discriminate H) | (specialize (H 1); vm_compute in H; discriminate H) | (specialize (H 2); vm_compute in H; discriminate H) | (specialize (H 3); vm_compute in H; discriminate H)]');
  });

  it('a HAMMER report\'s discovered lemmas become HAVE suggestions from HAMMER, used or not', () => {
    const lemma = { name: 'total_app', statement: 'forall l1 l2 : list nat, total (l1 ++ l2) = total l1 + total l2', proof: 'solve [intros; induction l1; simpl; lia]', used: false };
    const failed: ShellResponse = { CHANNEL: 0, RESPONSE: null, ERR: 'fail', STEP: 3, HAMMER_REPORT: { stages: [], ms: 5, discovered: [lemma] } };
    const [s] = hammerLemmaSuggestions(failed);
    expect(s).toMatchObject({ from: HAMMER_SOURCE, label: 'progress', step: 3, apply: ['HAVE total_app "forall l1 l2 : list nat, total (l1 ++ l2) = total l1 + total l2"', 'APPLY (solve [intros; induction l1; simpl; lia])', 'END'] });
    expect(s?.reason).toContain('did not close');
    expect(hammerLemmaSuggestions({ ...failed, ERR: '', HAMMER_REPORT: { stages: [], ms: 5, discovered: [{ ...lemma, used: true }] } })[0]).toMatchObject({ step: 2 });
    expect(hammerLemmaSuggestions({ ...failed, HAMMER_REPORT: { stages: [], ms: 5 } })).toEqual([]);
  });
});

/** Real coqidetop: goals only a discovered lemma closes; the script is checked again by coqc alone. */
describe('lemma discovery in HAMMER (real coqidetop)', () => {
  let factory: EngineFactory;
  let shell: Shell;
  let session: AgentSession;
  const run = async (line: string): Promise<ShellResponse> => {
    const [r] = await Promise.all(shell.submitLine(line));
    return r as ShellResponse;
  };
  /** The declaration and the goal on the session's channel, then `HAMMER seconds`'s answer. */
  const hammered = async (define: string, goal: string, seconds = 20): Promise<ShellResponse> => {
    expect((await run(`DEFINE ${quoteArgument(define)}`)).ERR).toBe('');
    expect((await run(`GOAL ${quoteArgument(goal)}`)).ERR).toBe('');
    return run(`HAMMER ${seconds}`);
  };
  const checkedByCoqc = async (script: string): Promise<boolean> => {
    // The finishing END's script is its own item's: its theorem is the last one it states.
    const theorem = [...script.matchAll(/^Theorem (\S+) :/gm)].at(-1)?.[1] ?? 'arbor_goal';
    const r = await runCoqc(`${script}\nPrint Assumptions ${theorem}.\n`, { killAfterMs: 120_000 });
    return r.ok && /Closed under the global context/.test(r.output);
  };

  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    session = new AgentSession({ port: inProcessPort(shell), channel: 0 });
  }, 60_000);
  afterAll(async () => {
    await session?.close();
    await shell?.close();
    await factory?.dispose();
  });

  it('a lemma proved but not enough to close the goal is still reported and offered, as not used', async () => {
    // First in the document: a finished theorem of the document would be a premise HAMMER tries before all else.
    const h = await hammered(TOTAL.replace(/total/g, 'tot'), 'forall l, tot l = 3 -> tot (rev l) = 3', 8);
    expect(h.HAMMER_REPORT?.closedWith).toBeUndefined();
    expect(h.ERR).toMatch(/^(fail|timeout)/);
    expect(h.HAMMER_REPORT?.stages).toContainEqual(expect.objectContaining({ stage: 'discovery', outcome: 'progress', tactic: 'assert (tot_app : forall (l1 : list nat) (l2 : list nat), tot (l1 ++ l2) = tot l1 + tot l2)' }));
    expect(h.HAMMER_REPORT?.discovered).toEqual([expect.objectContaining({ name: 'tot_app', used: false })]);
    // The goal is unchanged, and the lemma waits in the panel as a HAVE step.
    expect((await run('STATE')).RESPONSE).toMatchObject({ goal: 'forall l : list nat, tot l = 3 -> tot (rev l) = 3' });
    const offered = session.queue.list({ from: HAMMER_SOURCE, status: 'pending' }).find((s) => s.reason?.includes('did not close'));
    expect(offered?.apply[0]).toBe('HAVE tot_app "forall (l1 : list nat) (l2 : list nat), tot (l1 ++ l2) = tot l1 + tot l2"');
    expect(offered?.step).toBe(h.STEP);
  }, 180_000);

  it('sum over a reversed list: closed with `total (l1 ++ l2) = total l1 + total l2`; offered as a HAVE', async () => {
    const h = await hammered(TOTAL, 'forall l, total (rev l) = total l');
    expect(h.ERR).toBe('');
    const report = h.HAMMER_REPORT!;
    const discovery = report.stages.filter((s) => s.stage === 'discovery');
    // Every stage before discovery failed on this goal: only the lemma closed it.
    expect(report.stages.filter((s) => s.stage !== 'discovery').every((s) => s.outcome !== 'closed')).toBe(true);
    expect(discovery).toEqual([
      expect.objectContaining({ tactic: 'assert (total_app : forall (l1 : list nat) (l2 : list nat), total (l1 ++ l2) = total l1 + total l2)', outcome: 'closed' }),
    ]);
    expect(report.closedWith).toMatch(/^assert \(total_app : forall \(l1 : list nat\) \(l2 : list nat\), total \(l1 \+\+ l2\) = total l1 \+ total l2\) by \(.*\)\. solve \[.*total_app.*\]\.$/);
    expect(report.discovered).toEqual([expect.objectContaining({ name: 'total_app', used: true })]);
    const end = await run('END');
    expect(end.ERR).toBe('');
    expect(end.SCRIPT).toContain('assert (total_app : ');
    expect(await checkedByCoqc(end.SCRIPT ?? '')).toBe(true);

    // The lemma is in the suggestion panel's queue, from HAMMER, as a HAVE with its proof.
    const offered = session.queue.list({ from: HAMMER_SOURCE }).filter((s) => s.apply[0]?.startsWith('HAVE total_app '));
    expect(offered).toHaveLength(1);
    expect(offered[0]?.apply[0]).toBe('HAVE total_app "forall (l1 : list nat) (l2 : list nat), total (l1 ++ l2) = total l1 + total l2"');
    // Accepted on the same statement stated again, it is a named step the user keeps: the goal then has it.
    expect((await run('GOAL "forall l, total (rev l) = total l"')).ERR).toBe('');
    await session.accept(offered[0]!.id);
    const state = await run('STATE');
    expect(JSON.stringify(state.RESPONSE)).toContain('total_app');
    expect((await run('APPLY (intros l; induction l; simpl; rewrite ?total_app; simpl; lia)')).ERR).toBe('');
    const finished = await run('END');
    expect(finished.ERR).toBe('');
    expect(await checkedByCoqc(finished.SCRIPT ?? '')).toBe(true);
  }, 180_000);

  it('a reversal function twice: the false `f (l1 ++ l2) = f l1 ++ f l2` is refuted and not used, the swapped form closes it', async () => {
    const h = await hammered('Fixpoint flip (l : list nat) : list nat := match l with [] => [] | x :: t => flip t ++ [x] end.', 'forall l, flip (flip l) = l');
    expect(h.ERR).toBe('');
    const discovery = h.HAMMER_REPORT!.stages.filter((s) => s.stage === 'discovery');
    expect(discovery.map((s) => [s.tactic, s.outcome])).toEqual([
      ['assert (flip_app : forall (l1 : list nat) (l2 : list nat), flip (l1 ++ l2) = flip l1 ++ flip l2)', 'refuted'],
      ['assert (flip_app : forall (l1 : list nat) (l2 : list nat), flip (l1 ++ l2) = flip l2 ++ flip l1)', 'closed'],
    ]);
    const end = await run('END');
    expect(end.SCRIPT).toContain('flip (l1 ++ l2) = flip l2 ++ flip l1');
    expect(end.SCRIPT).not.toContain('flip (l1 ++ l2) = flip l1 ++ flip l2');
    expect(await checkedByCoqc(end.SCRIPT ?? '')).toBe(true);
  }, 180_000);

  it('an accumulator function applied to [] : closed with the generalised accumulator lemma', async () => {
    const h = await hammered(REV_INTO, 'forall (A : Type) (l : list A), rev_into l [] = rev l');
    expect(h.ERR).toBe('');
    const report = h.HAMMER_REPORT!;
    expect(report.stages.filter((s) => s.stage !== 'discovery').every((s) => s.outcome !== 'closed')).toBe(true);
    expect(report.stages).toContainEqual(expect.objectContaining({ stage: 'discovery', outcome: 'closed', tactic: 'assert (rev_into_acc : forall (A : Type) (l : list A) acc, rev_into l acc = rev l ++ acc)' }));
    const end = await run('END');
    expect(end.ERR).toBe('');
    expect(await checkedByCoqc(end.SCRIPT ?? '')).toBe(true);
    expect(session.queue.list({ from: HAMMER_SOURCE }).map((s) => s.apply[0])).toContain('HAVE rev_into_acc "forall (A : Type) (l : list A) acc, rev_into l acc = rev l ++ acc"');
  }, 180_000);

  it('a compound argument: Coq refutes the plain generalisation; the even one is proved and closes the goal', async () => {
    // HAMMER's induction closes `even2 (n + n + 4)` itself now (it normalises `n + S m`), before discovery
    // runs; so the generated conjectures, refutation, proofs and closers are sent to Coq one by one here.
    expect((await run(`DEFINE ${quoteArgument(EVEN)}`)).ERR).toBe('');
    const [plain, even] = conjectures({ vars: [{ name: 'n', type: 'nat' }], goal: 'even2 (n + n + 4) = true' }, fixpointSignatures(EVEN), new Set(['n']));
    if (!plain || !even) throw new Error('expected two conjectures');
    expect([plain.statement, even.statement]).toEqual(['forall (m : nat), even2 m = true', 'forall (m : nat), even2 (m + m) = true']);
    expect((await run('GOAL "forall n, even2 (n + n + 4) = true"')).ERR).toBe('');
    const intro = await run('APPLY intros n');
    expect(intro.ERR).toBe('');
    // The false one: Coq proves its negation on a small instance; the true one's negation it cannot.
    expect((await run(`APPLY (assert (~ (${plain.statement})) by (${refutationTactic(plain)}))`)).ERR).toBe('');
    expect((await run(`REVERT ${intro.STEP}`)).ERR).toBe('');
    expect((await run(`APPLY (assert (~ (${even.statement})) by (${refutationTactic(even)}))`)).ERR).not.toBe('');
    // The true one: proved by one of its own proofs; then one of its closers closes the goal with it.
    const alternatives = (tactics: readonly string[]): string => `first [${tactics.map((t) => `(${t})`).join(' | ')}]`;
    expect((await run(`APPLY (assert (${even.name} : ${even.statement}) by (${alternatives(even.proofs)}))`)).ERR).toBe('');
    expect((await run(`APPLY (${alternatives(even.closers)})`)).ERR).toBe('');
    const end = await run('END');
    expect(end.ERR).toBe('');
    expect(await checkedByCoqc(end.SCRIPT ?? '')).toBe(true);
  }, 180_000);
});
