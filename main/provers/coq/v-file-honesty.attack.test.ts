import { describe, expect, it } from 'vitest';
import type { TreeView } from '../../../shared/proof-tree/proof-tree.ts';
import { descendants } from '../../process/process-tree.ts';
import { vFileDerivations, type VFileReport } from './v-file-derivations.ts';

/**
 * Attacks (atk-vfile, by someone who did not build it) on how a `.v` file's proofs are drawn and listed,
 * with real coqidetop: a goal no tactic proved must never be drawn proved, and a theorem resting on an
 * admitted lemma must say so whether or not it has a name.
 */
const nodes = (t: TreeView): TreeView[] => [t, ...(t.children ?? []).flatMap(nodes)];
const run = (text: string): Promise<VFileReport> => vFileDerivations(text, { timeoutMs: 60_000 });

describe('.v files: honest display (attack, real coqidetop)', () => {
  it('a goal put aside with `shelve` is drawn open, not proved by `shelve`; the root of its Admitted proof is not proved', { timeout: 300_000 }, async () => {
    const r = await run('Lemma x : False /\\ True. Proof. split. shelve. exact I. Admitted.\nLemma y : False /\\ True. Proof. split. { shelve. } exact I. Admitted.\n');
    expect(r.stopped).toBeUndefined();
    for (const t of r.theorems) {
      const all = nodes(t.steps.at(-1)!.tree);
      const falseGoal = all.find((n) => n.goal === 'False');
      expect(falseGoal, t.name).toBeDefined();
      expect(falseGoal?.status, t.name).not.toBe('proved');
      expect(all[0]?.status, t.name).not.toBe('proved');
      // `exact I` still proves its own goal.
      expect(all.find((n) => n.goal === 'True')?.status, t.name).toBe('proved');
    }
  });

  it('eexists: the witness Coq shelves is closed by the tactic that fixes it, and the proof is proved', { timeout: 300_000 }, async () => {
    const r = await run('Lemma g : exists n : nat, n = 1. Proof. eexists. reflexivity. Qed.\n');
    expect(r.stopped).toBeUndefined();
    const all = nodes(r.theorems[0]!.steps.at(-1)!.tree);
    expect(all.every((n) => n.status === 'proved'), JSON.stringify(all.map((n) => [n.goal, n.status]))).toBe(true);
    expect(r.theorems[0]!.converted.ok).toBe(true);
  });

  it('an anonymous Goal ending Qed that uses an admitted lemma is marked as resting on it, like a named one', { timeout: 300_000 }, async () => {
    const r = await run('Lemma adm : False. Admitted.\nLemma Unnamed_thm : True. Proof. exact I. Qed.\nGoal False. exact adm. Qed.\nGoal True. exact I. Qed.\nModule M. Goal False. exact adm. Qed. End M.\nLemma named : False. Proof. exact adm. Qed.\n');
    expect(r.stopped).toBeUndefined();
    const [, clean, anon, anonClean, inModule, named] = r.theorems;
    expect(named?.restsOn?.map((a) => a.name)).toEqual(['adm']);
    expect(anon?.name).toBeUndefined();
    expect(anon?.restsOn?.map((a) => a.name)).toEqual(['adm']);
    expect(inModule?.restsOn?.map((a) => a.name)).toEqual(['adm']);
    expect(anonClean?.restsOn).toBeUndefined();
    expect(clean?.restsOn).toBeUndefined();
  });
});

describe('.v files: Cancel after reading (attack, real coqidetop)', () => {
  // Measured: 120 one-line lia lemmas after one Admitted read in 21 s, then judging them (Check, Print
  // Assumptions, Locate) took 226 s more, silent, deaf to Cancel and past the overall limit.
  it('Cancel while the theorems are being judged stops there, keeping only theorems judged', { timeout: 600_000 }, async () => {
    const lemmas = Array.from({ length: 30 }, (_, i) => `Lemma l${i} : forall n m : nat, n + m + ${i} = m + n + ${i}. Proof. intros; lia. Qed.`);
    const text = ['Require Import Lia.', 'Lemma adm : False. Admitted.', 'Lemma uses : False. Proof. exact adm. Qed.', ...lemmas].join('\n');
    const cancel = new AbortController();
    let judgingSeen = 0;
    const r = await vFileDerivations(text, {
      timeoutMs: 60_000, signal: cancel.signal,
      // Cancel as the third theorem's judging starts (reading is over): it is judged, nothing after it.
      onProgress: (p) => {
        if (p.judging !== undefined) judgingSeen++;
        if ((p.judged ?? 0) >= 2) cancel.abort();
      },
    });
    expect(judgingSeen).toBeGreaterThan(0);
    expect(r.stopped).toMatchObject({ cancelled: true, message: expect.stringMatching(/cancelled at line \d+ while asking Coq/) as unknown });
    expect(r.theorems.map((t) => t.name)).toEqual(['adm', 'uses', 'l0']);
    expect(r.theorems[1]?.restsOn?.map((a) => a.name)).toEqual(['adm']);
  });
});

describe('.v files: a sentence skipped inside a proof (attack, real coqidetop)', () => {
  it('marks the theorem whose own proof was read without it, also on the theorem\'s first line; not the theorem before it', { timeout: 300_000 }, async () => {
    const r = await run('Lemma a : True. Proof. exact I. Qed.\nLemma d : True. Proof. Show. exact I. Qed.\nLemma e : True.\nProof.\n  Show Proof.\n  exact I.\nQed.\nLemma f : True. Proof. exact I. Qed.\n');
    expect(r.stopped).toBeUndefined();
    expect(r.skipped?.map((k) => k.line)).toEqual([2, 5]);
    expect(r.theorems.map((t) => [t.name, t.readWithout])).toEqual([['a', undefined], ['d', [2]], ['e', [2, 5]], ['f', [2, 5]]]);
  });
});

describe('.v files: Cancel during a sentence that never ends (attack, real coqidetop)', () => {
  // Cancel acted only between sentences: a tactic that never ends held it for the sentence's whole limit
  // (at least 30 s in the workbench; the workbench's HAMMER time when longer).
  it('interrupts the running sentence at once and keeps the theorems read, judged', { timeout: 300_000 }, async () => {
    const cancel = new AbortController();
    const started = performance.now();
    const r = await vFileDerivations('Ltac spin := idtac; spin.\nLemma adm : False. Admitted.\nLemma ok : False. Proof. exact adm. Qed.\nLemma loop : True. Proof.\nspin. Qed.\nLemma after : True. Proof. exact I. Qed.\n', {
      timeoutMs: 240_000, signal: cancel.signal,
      // The sentence before `spin.` (the 9th: line 4's `Proof.`) has run: cancel while `spin.` runs. Not at the
      // first sentence of line 4: on a loaded machine the interrupt then reached line 4's `Proof.` (CI flake).
      onProgress: (p) => { if (p.sentences === 9 && p.judging === undefined) setImmediate(() => cancel.abort()); },
    });
    expect(performance.now() - started).toBeLessThan(120_000);
    expect(r.stopped).toMatchObject({ line: 5, cancelled: true });
    expect(r.theorems.map((t) => t.name)).toEqual(['adm', 'ok', 'loop']);
    expect(r.theorems[1]?.restsOn?.map((a) => a.name)).toEqual(['adm']);
  });

  it('keeps and judges the theorems read when coqidetop died at Cancel (killed after an unanswered interrupt)', { timeout: 300_000 }, async () => {
    const cancel = new AbortController();
    // This test's own coqidetop (a descendant of this worker), killed as the client kills one deaf to SIGINT.
    const killOurCoqidetop = (): void => {
      for (const p of descendants(process.pid)) if (/^coqidetop/.test(p.name)) process.kill(p.pid, 'SIGKILL');
    };
    const r = await vFileDerivations('Ltac spin := idtac; spin.\nLemma adm : False. Admitted.\nLemma ok : False. Proof. exact adm. Qed.\nLemma loop : True. Proof.\nspin. Qed.\n', {
      timeoutMs: 240_000, signal: cancel.signal,
      onProgress: (p) => {
        if (p.line === 4 && p.judging === undefined) {
          killOurCoqidetop();
          setImmediate(() => cancel.abort());
        }
      },
    });
    // Stopped where the next sentence was to be delimited or run (line 4's `Proof.`, or `spin.`), as cancelled.
    expect(r.stopped).toMatchObject({ cancelled: true });
    expect([4, 5]).toContain(r.stopped?.line);
    expect(r.theorems.map((t) => t.name)).toEqual(['adm', 'ok', 'loop']);
    expect(r.theorems[1]?.restsOn?.map((a) => a.name)).toEqual(['adm']);
  });
});

describe('.v files: a large file (attack, real coqidetop)', () => {
  // Every dot to the end of the file was listed for each sentence: 595 sentences of this file in 15 s
  // (15,000 after the fix), so a 1 MB file never got far within the overall limit.
  it('a 950 KB file of 40,000 definitions reads its first 5,000 sentences within the limit', { timeout: 300_000 }, async () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `Definition d${i} := ${i % 10}.\n`).join('');
    const cancel = new AbortController();
    const r = await vFileDerivations(text, { timeoutMs: 60_000, wallClockMs: 120_000, signal: cancel.signal, onProgress: (p) => { if (p.sentences >= 5_000) cancel.abort(); } });
    expect(r.stopped).toMatchObject({ cancelled: true });
    expect(r.sentences).toBeGreaterThanOrEqual(5_000);
  });
});

describe('.v files: a comment that never closes (attack, real coqidetop)', () => {
  it('stops at the comment\'s first line (not the file\'s last), keeping the theorem before it', { timeout: 300_000 }, async () => {
    const r = await run('Lemma a : True. Proof. exact I. Qed.\n(* never closed\nLemma b : True. Proof. exact I. Qed.\n\n\n');
    expect(r.stopped).toMatchObject({ line: 2, message: expect.stringMatching(/Unterminated comment/) as unknown });
    expect(r.theorems.map((t) => t.name)).toEqual(['a']);
  });
});

describe('.v files: Register now runs (attack, held)', () => {
  it('rebinding what tactics use (core.False, core.eq, core.True) or the kernel\'s primitive types proves nothing the kernel does not check', { timeout: 300_000 }, async () => {
    const r = await run([
      'Require Import Lia.',
      'Register True as core.False.type.', 'Register I as core.eq.refl.', 'Register False as core.True.type.',
      'Lemma bad : False. Proof. first [congruence | discriminate | lia | contradiction | trivial | easy]. Qed.',
    ].join('\n'));
    expect(r.stopped?.line).toBe(5);
    expect(r.theorems.filter((t) => t.ending === 'Qed')).toEqual([]);
    // A look-alike of bool registered as the kernel's bool (before PrimInt63 does): Coq checks its shape.
    const kernel = await run('Inductive mb := T | F.\nRegister mb as kernel.ind_bool.\nRequire Import PrimInt63.\nLemma bad : PrimInt63.eqb 0 0 = false. Proof. reflexivity. Qed.\n');
    expect(kernel.stopped?.line).toBe(2);
    expect(kernel.theorems).toEqual([]);
  });
});
