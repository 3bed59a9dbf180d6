import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * "Proved" is a promise (BRIEF §3): attacks on it through the protocol, run against the real coqidetop
 * behind the real arbor-shell. Each case sends its requests on a fresh channel; none may ever answer a
 * finished proof (the empty bundle with no error) or carry a SCRIPT — unless that answer carries STATEMENT,
 * the statement Coq elaborated and how it differs from the text's clean reading (issue 21: declarations
 * that shadow library names are honest work; their proofs are shown with the document's own names).
 */
const finished = (r: ShellResponse): boolean =>
  r.ERR === '' && typeof r.RESPONSE === 'object' && r.RESPONSE !== null && Array.isArray((r.RESPONSE as { goal?: unknown }).goal) && ((r.RESPONSE as { goal: unknown[] }).goal).length === 0;

const attacks: { name: string; requests: string[] }[] = [
  { name: 'shelve the goal, then END', requests: ['GOAL "False"', 'APPLY shelve', 'END', 'END', 'NEXT'] },
  { name: 'shelve inside a tactic', requests: ['GOAL "False"', 'APPLY (idtac; shelve)', 'END'] },
  { name: 'give_up', requests: ['GOAL "False"', 'APPLY give_up', 'END', 'END'] },
  { name: 'give_up behind RULE', requests: ['GOAL "False"', 'RULE I || give_up', 'END', 'END'] },
  { name: 'give_up behind UNFOLD', requests: ['GOAL "False"', 'UNFOLD not || give_up', 'END', 'END'] },
  { name: 'admit behind RULE', requests: ['GOAL "1 = 2"', 'RULE eq_refl || admit', 'END'] },
  { name: 'a hint that gives up, then CRUSH', requests: ['PRELUDE "Hint Extern 0 => give_up : core."', 'GOAL "False"', 'CRUSH', 'END', 'END'] },
  { name: 'an Ltac that gives up', requests: ['PRELUDE "Ltac cheat := give_up."', 'GOAL "False"', 'APPLY cheat', 'END', 'END'] },
  { name: 'an Ltac that admits, through CRUSH rules', requests: ['PRELUDE "Ltac cheat := admit."', 'GOAL "False"', 'CRUSH', 'APPLY cheat', 'END'] },
  { name: 'AdmitAxiom', requests: ['PRELUDE "Require Import Coq.Compat.AdmitAxiom."', 'GOAL "False"', 'APPLY (case proof_admitted)', 'END', 'END'] },
  { name: 'AdmitAxiom through RULE', requests: ['PRELUDE "From Coq Require Import Compat.AdmitAxiom."', 'GOAL "1 = 2"', 'RULE proof_admitted', 'END'] },
  { name: 'guard checking off', requests: ['PRELUDE "Unset Guard Checking. Fixpoint loop (n : nat) : False := loop n."', 'GOAL "False"', 'APPLY (exact (loop 0))', 'END'] },
  { name: 'bypass_check(guard)', requests: ['PRELUDE "#[bypass_check(guard)] Fixpoint loop (n : nat) : False := loop n."', 'GOAL "False"', 'APPLY (exact (loop 0))', 'END'] },
  { name: 'bypass_check(positivity)', requests: ['PRELUDE "#[bypass_check(positivity)] Inductive Bad := mk : (Bad -> False) -> Bad."', 'GOAL "False"', 'APPLY (exact (let f := fun b : Bad => match b with mk g => g b end in f (mk f)))', 'END'] },
  { name: 'an axiom in a prelude', requests: ['PRELUDE "Axiom cheat : False."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'a parameter in a prelude', requests: ['PRELUDE "Parameter cheat : False."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'a Variable outside a section (an axiom in disguise)', requests: ['PRELUDE "Variable cheat : False."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'an admitted lemma in a prelude', requests: ['PRELUDE "Lemma cheat : False. Admitted."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'an admitted definition in a prelude', requests: ['PRELUDE "Definition cheat : False. Admitted."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'a notation that makes = trivial', requests: ['PRELUDE "Notation \\"x = y\\" := (True) : type_scope."', 'GOAL "1 = 2"', 'APPLY (exact I)', 'END'] },
  { name: 'a notation that makes False mean True', requests: ['PRELUDE "Notation False := True."', 'GOAL "False"', 'END'] },
  { name: 'a lonely notation that makes = trivial', requests: ['PRELUDE "Notation \\"x = y\\" := True."', 'GOAL "1 = 2"', 'APPLY (exact I)', 'END'] },
  { name: 'DEFINE: a lonely notation that makes = trivial', requests: ['DEFINE "Notation \\"x = y\\" := True."', 'GOAL "1 = 2"', 'APPLY (exact I)', 'END'] },
  { name: 'DEFINE: a scoped notation that makes = trivial', requests: ['DEFINE "Notation \\"x = y\\" := (True) : type_scope."', 'GOAL "1 = 2"', 'APPLY (exact I)', 'END'] },
  { name: 'DEFINE: a definition that makes False mean True', requests: ['DEFINE "Definition False := True."', 'GOAL "False"', 'END'] },
  { name: 'DEFINE: an inductive that makes False inhabited', requests: ['DEFINE "Inductive False := yes."', 'GOAL "False"', 'APPLY (exact yes)', 'END'] },
  { name: 'DEFINE: an axiom', requests: ['DEFINE "Axiom cheat : False."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'DEFINE: an admitted lemma', requests: ['DEFINE "Lemma cheat : False. Admitted."', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'DEFINE: a module that hides eq', requests: ['DEFINE "Module M. Definition eq (a b : nat) := True. End M. Import M."', 'GOAL "eq 1 2"', 'END'] },
  { name: 'an unfinished theorem used by a later one', requests: ['GOAL cheat "False"', 'GOAL "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'a theorem used inside its own proof', requests: ['GOAL cheat "False"', 'APPLY (exact cheat)', 'END'] },
  { name: 'a definition that makes False mean True', requests: ['PRELUDE "Definition False := True."', 'GOAL "False"', 'END'] },
  { name: 'an inductive that makes False inhabited', requests: ['PRELUDE "Inductive False := yes."', 'GOAL "False"', 'APPLY (exact yes)', 'END'] },
  { name: 'a module that hides eq', requests: ['PRELUDE "Module M. Definition eq (a b : nat) := True. End M. Import M."', 'GOAL "eq 1 2"', 'END'] },
  { name: 'Qed and Admitted injected in the goal', requests: ['GOAL "False). Admitted. Theorem x : (True"', 'END'] },
  { name: 'Admitted injected in a tactic', requests: ['GOAL "False"', 'APPLY idtac. Admitted. Theorem t : True. Proof', 'END'] },
  { name: 'a comment injected in a tactic', requests: ['GOAL "False"', 'APPLY (idtac (* ) *) )', 'END'] },
  { name: 'admit spelled inside a string-free ltac block', requests: ['GOAL "False"', 'APPLY (exact ltac:(admit))', 'END'] },
  { name: 'abstract over give_up', requests: ['GOAL "False"', 'APPLY (abstract give_up)', 'END'] },
  { name: 'a HAVE whose proof gives up, used to finish', requests: ['GOAL "False"', 'HAVE h "False"', 'APPLY give_up', 'END', 'APPLY (exact h)', 'END'] },
  { name: 'an unresolved existential (eexists)', requests: ['GOAL "exists n : nat, n = n + 1"', 'APPLY eexists', 'APPLY shelve', 'END', 'END', 'END'] },
  { name: 'evar left by eapply, goal closed by shelving', requests: ['GOAL "forall n m : nat, n <= m -> False"', 'APPLY intros', 'APPLY (eapply (@le_ind n (fun _ => False)))', 'APPLY shelve', 'END', 'END', 'END'] },
  { name: 'Hammer shell injection is refused, never run', requests: ['PRELUDE "Set Hammer PredictPath \\"touch /tmp/arbor-pwned;\\"."', 'GOAL "forall n : nat, n + 0 = n"', 'HAMMER'] },
  { name: 'Redirect is refused', requests: ['PRELUDE "Redirect \\"/tmp/arbor-pwned\\" Print nat."', 'GOAL "False"', 'END'] },
  { name: 'Unset Universe Checking is refused', requests: ['PRELUDE "Unset Universe Checking."', 'GOAL "False"', 'END'] },
];

/** Shadowing attacks that now finish, shown with their meaning (meaning.test.ts has the rest). */
const shown: { name: string; requests: string[]; difference: RegExp }[] = [
  { name: 'DEFINE: a definition that makes False mean True', requests: ['DEFINE "Definition False := True."', 'GOAL "False"', 'APPLY (exact I)', 'END'], difference: /`False` is the document's own `Top\.False`, not `Coq\.Init\.Logic\.False`/ },
  { name: 'a module that hides eq', requests: ['PRELUDE "Module M. Definition eq (a b : nat) := True. End M. Import M."', 'GOAL "eq 1 2"', 'APPLY (exact I)', 'END'], difference: /`eq` is the document's own `Top\.M\.eq`, not `Coq\.Init\.Logic\.eq`/ },
];

describe('nothing false is ever proved (real coqidetop through arbor-shell)', () => {
  let shell: ShellProcess;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'arbor-soundness-'));
    shell = new ShellProcess(['--timeout', '4']);
  });
  afterAll(async () => {
    await shell.end();
    await rm(dir, { recursive: true, force: true });
  });

  for (const attack of attacks) {
    it(`never plainly proved: ${attack.name}`, async () => {
      const created = await shell.request('NEW_CHANNEL', 0);
      const ch = (created.RESPONSE as { ID: number }).ID;
      const responses: ShellResponse[] = [];
      for (const r of attack.requests) responses.push(await shell.request(`${ch} ${r}`, ch));
      // A finished proof is bad unless its statement means what its text says, or STATEMENT shows what it means.
      const bad = responses.filter((r) => (finished(r) || r.SCRIPT !== undefined) && r.STATEMENT === undefined);
      expect(bad, JSON.stringify(responses.map((r) => r.ERR))).toEqual([]);
      await shell.request(`${ch} RELEASE_CHANNEL`, ch);
    }, 120_000);
  }

  for (const attack of shown) {
    it(`finishes with the meaning shown: ${attack.name}`, async () => {
      const created = await shell.request('NEW_CHANNEL', 0);
      const ch = (created.RESPONSE as { ID: number }).ID;
      let end: ShellResponse | undefined;
      for (const r of attack.requests) end = await shell.request(`${ch} ${r}`, ch);
      expect(end?.ERR).toBe('');
      expect(end?.STATEMENT?.differences.join('\n')).toMatch(attack.difference);
      await shell.request(`${ch} RELEASE_CHANNEL`, ch);
    }, 120_000);
  }

  it('says why: depends on proof_admitted, a switched-off check, the kernel refusing', async () => {
    const created = await shell.request('NEW_CHANNEL', 0);
    const ch = (created.RESPONSE as { ID: number }).ID;
    const send = (r: string) => shell.request(`${ch} ${r}`, ch);
    await send('PRELUDE "Require Import Coq.Compat.AdmitAxiom."');
    await send('GOAL "False"');
    await send('APPLY (case proof_admitted)');
    const end = await send('END');
    expect(end.ERR).toBe('unsound: depends on proof_admitted (Coq.Compat.AdmitAxiom.proof_admitted)');
    // A failed command leaves the state unchanged: the proved leaf is still there.
    expect((await send('STATE')).RESPONSE).toEqual({ ctxt: { vars: [], hyps: [] }, goal: 'True' });
    await send('PRELUDE ""');
    await send('GOAL "False"');
    const shelved = await send('APPLY shelve');
    // The shelved goal is an open leaf, not a finished proof.
    expect(shelved.RESPONSE).toEqual({ ctxt: { vars: [], hyps: [] }, goal: 'False' });
    await send('GOAL "False"');
    expect((await send('UNFOLD not || give_up')).ERR).toBe('');
    expect((await send('END')).ERR).toMatch(/^fail: this goal was given up/);
    await shell.request(`${ch} RELEASE_CHANNEL`, ch);
  }, 120_000);

  it('still proves true statements, saying what they depend on', async () => {
    const created = await shell.request('NEW_CHANNEL', 0);
    const ch = (created.RESPONSE as { ID: number }).ID;
    const send = (r: string) => shell.request(`${ch} ${r}`, ch);
    await send('GOAL "forall n m : nat, n + m = m + n"');
    const closed = await send('END');
    expect(closed).toMatchObject({ ERR: '', RESPONSE: { goal: [] }, ASSUMPTIONS: [] });
    expect(closed.SCRIPT).toMatch(/Qed\.\s*$/);
    // The standard library's excluded middle is trusted, and listed.
    await send('PRELUDE "Require Import Classical."');
    await send('GOAL "forall P : Prop, P \\/ ~ P"');
    await send('APPLY (exact classic)');
    const classical = await send('END');
    expect(classical.ERR).toBe('');
    expect(classical.ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
    // An existential left open by eexists becomes a goal of its own, proved by the hammer.
    await send('PRELUDE ""');
    await send('GOAL "exists n : nat, n + 0 = 3"');
    await send('APPLY eexists');
    const evar = await send('END');
    expect(evar.ERR).toBe('');
    await shell.request(`${ch} RELEASE_CHANNEL`, ch);
  }, 180_000);

  it('trusts axioms of the prelude the user chose (--prelude), and lists them', async () => {
    const file = join(dir, 'trusted.v');
    await writeFile(file, 'Axiom excluded : forall P : Prop, P \\/ ~ P.\n');
    const trusted = new ShellProcess(['--timeout', '4', '--prelude', file]);
    try {
      await trusted.request('GOAL "forall P : Prop, ~ ~ P -> P"', 0);
      await trusted.request('APPLY (intros P H; destruct (excluded P); [assumption | contradiction])', 0);
      const end = await trusted.request('END', 0);
      expect(end.ERR).toBe('');
      expect(end.ASSUMPTIONS).toEqual(['excluded : forall P : Prop, P \\/ ~ P']);
    } finally {
      await trusted.end();
    }
  }, 120_000);
});
