import { afterEach, describe, expect, it } from 'vitest';
import { cpuMs, descendants, type ProcInfo } from '../../process/process-tree.ts';
import type { VFileTheoremReport } from '../../../shared/derivation/v-file-derivation.ts';
import { runCoqc } from '../../fidelity/run-coqc.ts';
import { useRealShell } from './testing/real-shell.ts';
import { vFileDerivations, type VFileOptions, type VFileReport } from './v-file-derivations.ts';

/**
 * Attacks (atk-prefix, by someone who did not build it) on ▶ Convert's second reading (`DefinedPrefix` in
 * v-file-derivations.ts): once an admitted proof is left out of a conversion's DEFINE, a second coqidetop runs the
 * DEFINE's text as far as the theorem, and every conversion after the line Coq refuses is refused with Coq's message.
 * Real coqidetop; converted items run through a real arbor-shell (the default environment, as the panel's ▶ Convert
 * opens a new document with the item's lines and no PRELUDE).
 */

/** coqidetop processes started by this test process (the sandbox's bwrap may stand between). */
const coqidetopList = (): ProcInfo[] => descendants(process.pid).filter((p) => /^coqidetop/.test(p.name));
const coqidetops = (): number => coqidetopList().length;

/** Runs `vFileDerivations`, sampling how many coqidetop run at once (every 25 ms) and timing it from outside. */
async function observed(text: string, options: VFileOptions, onSecond?: () => void, when: (second: ProcInfo) => boolean = () => true): Promise<{ report: VFileReport; most: number; ms: number }> {
  let most = 0;
  let fired = false;
  const timer = setInterval(() => {
    const list = coqidetopList();
    most = Math.max(most, list.length);
    // The newest coqidetop is the second reading's.
    const second = list.length >= 2 ? list.sort((x, y) => y.pid - x.pid)[0] : undefined;
    if (second !== undefined && !fired && onSecond !== undefined && when(second)) {
      fired = true;
      onSecond();
    }
  }, 25);
  const t0 = performance.now();
  try {
    const report = await vFileDerivations(text, options);
    return { report, most, ms: performance.now() - t0 };
  } finally {
    clearInterval(timer);
  }
}

const byName = (r: VFileReport, name: string): VFileTheoremReport => {
  const t = [...r.theorems].reverse().find((x) => x.name === name);
  if (t === undefined) throw new Error(`no theorem ${name}: ${JSON.stringify(r.stopped ?? r.theorems.map((x) => x.name))}`);
  return t;
};
const reasonOf = (t: VFileTheoremReport): string => (t.converted.ok ? '' : t.converted.reason);

/** Waits on the condition (no coqidetop of this process left), up to 10 s. */
const noneLeft = (): Promise<void> => expect.poll(coqidetops, { timeout: 10_000 }).toBe(0);

/** A sentence fast when `a` exists (the file's own reading) and ~forever without it (the DEFINE's reading). */
const SLOW_WITHOUT_A = 'Definition d : True := ltac:(first [exact a | do 1000000000 idtac; exact I]).';

describe('▶ Convert\'s second reading: processes, limits, Cancel (attack, real coqidetop)', () => {
  afterEach(async () => {
    // No coqidetop outlives vFileDerivations.
    await noneLeft();
  });

  it('nothing admitted: no second coqidetop starts, and every theorem converts', { timeout: 120_000 }, async () => {
    const text = 'Definition k := 1.\nLemma x : k = 1. Proof. reflexivity. Qed.\nModule M. Lemma y : True. Proof. exact I. Qed. End M.\nLemma z : 2 = 2. Proof. reflexivity. Qed.\n';
    const { report, most } = await observed(text, { timeoutMs: 30_000 });
    expect(report.theorems.map((t) => t.converted.ok)).toEqual([true, true, true]);
    expect(most).toBe(1);
  });

  it('something admitted: a second coqidetop starts, and both are gone after return', { timeout: 120_000 }, async () => {
    const text = 'Lemma a : True. Admitted.\nDefinition k := 1.\nLemma z : k = 1. Proof. reflexivity. Qed.\n';
    const { report, most } = await observed(text, { timeoutMs: 30_000 });
    expect(byName(report, 'z').converted.ok).toBe(true);
    expect(most).toBe(2);
  });

  it('a sentence slow only on the second reading: the wall-clock limit holds (timed from outside), the theorem is refused at that line', { timeout: 120_000 }, async () => {
    const text = `Lemma a : True. Admitted.\n${SLOW_WITHOUT_A}\nLemma z : 1 = 1. Proof. reflexivity. Qed.\n`;
    const { report, ms } = await observed(text, { timeoutMs: 60_000, wallClockMs: 12_000 });
    expect(report.theorems.find((t) => t.name === 'a')).toBeDefined();
    const z = byName(report, 'z');
    expect(z.converted.ok).toBe(false);
    // Session 16: the limit stopped the reading there; said as such, not as Coq's refusal.
    expect(reasonOf(z)).toMatch(/^not offered: Arbor stopped reading its DEFINE at line 2 \(the time limit for opening the file was reached\)/);
    expect(ms).toBeLessThan(12_000 + 8_000);
  });

  // Shows: the second reading spends the wall-clock limit (a sentence slow only without the admitted `a`, run for z1's
  // conversion), and the judging loop then stops at z2 "while asking Coq what each theorem rests on": z2 and z3, read in
  // well under a second and refused anyway (the refusal at line 2 is cached), are dropped from the report, so their
  // derivations cannot even be browsed. Before the second reading existed they were shown.
  it.fails('a second reading that spends the wall-clock limit: theorems read after it are still shown', { timeout: 120_000 }, async () => {
    const text = `Lemma a : True. Admitted.\n${SLOW_WITHOUT_A}\nLemma z1 : 1 = 1. Proof. reflexivity. Qed.\nLemma z2 : 2 = 2. Proof. reflexivity. Qed.\nLemma z3 : 3 = 3. Proof. reflexivity. Qed.\n`;
    const { report } = await observed(text, { timeoutMs: 60_000, wallClockMs: 10_000 });
    expect(reasonOf(byName(report, 'z1'))).toMatch(/^its DEFINE would stop at line 2/);
    expect(report.theorems.map((t) => t.name)).toEqual(['a', 'z1', 'z2', 'z3']);
  });

  it('Cancel during the second reading: vFileDerivations returns promptly and nothing after it is offered', { timeout: 120_000 }, async () => {
    const text = `Lemma a : True. Admitted.\n${SLOW_WITHOUT_A}\nLemma z : 1 = 1. Proof. reflexivity. Qed.\nLemma w : 2 = 2. Proof. reflexivity. Qed.\n`;
    const ac = new AbortController();
    let abortedAt = 0;
    const { report } = await observed(text, { timeoutMs: 60_000, signal: ac.signal }, () => {
      abortedAt = performance.now();
      ac.abort();
    });
    const after = performance.now() - abortedAt;
    expect(abortedAt).toBeGreaterThan(0);
    expect(after).toBeLessThan(10_000);
    expect(report.theorems.some((t) => (t.name === 'z' || t.name === 'w') && t.converted.ok)).toBe(false);
  });

  // Fixed (session 16): said as Arbor stopping, never Coq refusing; the report says it was cancelled.
  // Showed: a Cancel during the second reading is reported, for the theorem being converted, as Coq refusing a line of the
  // file: "its DEFINE would stop at line 2: …, Coq refuses that line: cancelled before Coq read it" (DefinedPrefix stores
  // the cancellation as `refused` and convert words every refusal the same way). Coq refused nothing; and when that
  // theorem is the last one, the report has no `stopped` at all (the judging loop stops only at a next theorem), so the
  // panel shows a complete, uncancelled file whose line 2 Coq "refuses".
  it('Cancel during the second reading: no theorem is said to be refused by Coq, and the report says it was cancelled', { timeout: 120_000 }, async () => {
    const text = `Lemma a : True. Admitted.\n${SLOW_WITHOUT_A}\nLemma z : 1 = 1. Proof. reflexivity. Qed.\n`;
    const ac = new AbortController();
    const { report } = await observed(text, { timeoutMs: 60_000, signal: ac.signal }, () => ac.abort());
    for (const t of report.theorems) expect(reasonOf(t), t.name).not.toMatch(/Coq refuses that line/);
    expect(report.stopped?.cancelled).toBe(true);
  });

  // Fixed (session 16): a reading stopped by the limit, Cancel or a dead prover is said so, never as Coq's refusal.
  // Showed: when the file's own reading was cut by the wall-clock limit, every theorem read is still judged (readingCut), but
  // DefinedPrefix then throws 'not read: the time limit …' for the first sentence it would read, and convert words it as
  // "its DEFINE would stop at line 2: with the admitted proofs before it left out (a (line 1)), Coq refuses that line: not
  // read: the time limit for opening the file was reached". Coq never saw line 2 (`Definition k := 1.`, which it accepts);
  // the user is told the line is wrong, and `b` (whose DEFINE goes through) is not offered. It also starts a second
  // coqidetop after the deadline only to read nothing.
  it('reading cut by the wall-clock limit: a theorem read before the cut is not said to be refused by Coq at a line Coq never read', { timeout: 120_000 }, async () => {
    const text = 'Lemma a : True. Admitted.\nDefinition k := 1.\nLemma b : k = 1. Proof. reflexivity. Qed.\nDefinition slow : True := ltac:(do 1000000000 idtac; exact I).\n';
    const { report } = await observed(text, { timeoutMs: 60_000, wallClockMs: 8_000 });
    expect(report.stopped?.line).toBe(4);
    const b = byName(report, 'b');
    expect(reasonOf(b), reasonOf(b)).not.toMatch(/Coq refuses that line/);
  });

  // Fixed (session 16): no second prover starts once cancelled or out of time.
  // Showed: Cancel during the file's own reading (at a slow line 4) keeps what was read, and every theorem read is judged;
  // for `b` (after the admitted `a`) convert then starts a second coqidetop — after the Cancel — and its first sentence
  // fails at once with the aborted signal, so b reads "its DEFINE would stop at line 2: …, Coq refuses that line: cancelled
  // before Coq read it" although its DEFINE (`Definition k := 1.`) goes through.
  it('Cancel during the file\'s own reading: no coqidetop starts after it, and no theorem read is said to be refused by Coq', { timeout: 120_000 }, async () => {
    const text = 'Lemma a : True. Admitted.\nDefinition k := 1.\nLemma b : k = 1. Proof. reflexivity. Qed.\nDefinition slow : True := ltac:(do 1000000000 idtac; exact I).\n';
    const ac = new AbortController();
    let startedAfter = false;
    const timer = setInterval(() => {
      if (!ac.signal.aborted) {
        const list = coqidetopList();
        if (list.length === 1 && (cpuMs(list[0]?.pid ?? 0) ?? 0) > 2_000) ac.abort();
      } else if (coqidetops() >= 1 && coqidetopList().some((p) => (cpuMs(p.pid) ?? 0) < 1_000)) {
        startedAfter = true;
      }
    }, 25);
    try {
      const report = await vFileDerivations(text, { timeoutMs: 60_000, signal: ac.signal });
      expect(report.stopped?.cancelled).toBe(true);
      const b = byName(report, 'b');
      expect(reasonOf(b), reasonOf(b)).not.toMatch(/Coq refuses that line/);
      expect(startedAfter).toBe(false);
    } finally {
      clearInterval(timer);
    }
  });

  // Fixed (session 16): the second reading reports its line as progress.
  // Showed: the second reading runs the whole DEFINE text up to the theorem (as long as the file's own reading of it) with
  // no progress reported: onProgress is called per sentence while the file is read, and per theorem while judging, but not
  // while DefinedPrefix reads. Here 60 slow declarations (~0.1 s each) after an admitted lemma: the panel's progress stands
  // still for the whole second reading (several seconds; minutes on a real file), with no word of what runs.
  it('user view: progress is reported while the second reading runs', { timeout: 120_000 }, async () => {
    const slow = Array.from({ length: 60 }, (_, i) => `Definition s${i} : nat := ltac:(do 100000 idtac; exact 0).`);
    const at: number[] = [];
    const r = await vFileDerivations(`Lemma a : True. Admitted.\n${slow.join('\n')}\n${'Lemma z : 1 = 1. Proof. reflexivity. Qed.'}\n`, { timeoutMs: 60_000, onProgress: () => at.push(performance.now()) });
    at.push(performance.now());
    expect(byName(r, 'z').converted.ok).toBe(true);
    const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
    expect(Math.max(...gaps)).toBeLessThan(1_500);
  });

  // Fixed (session 16): a dead second prover stops the reading, said as such.
  // Showed: a second coqidetop that dies (here killed from outside while it reads line 2, as a crash or the OOM killer
  // would) is reported as Coq refusing line 2 of the file, with the client's death message, and every later conversion is
  // refused with it. The file's own reading says "Coq stopped at line N (…)" for the same event; the second reading has no
  // such case (and does not read again on a fresh prover).
  it('the second coqidetop dies: that is not reported as Coq refusing a line of the file', { timeout: 120_000 }, async () => {
    const text = `Lemma a : True. Admitted.\n${SLOW_WITHOUT_A}\nLemma z : 1 = 1. Proof. reflexivity. Qed.\n`;
    let killed: number | undefined;
    // Killed once it is busy on line 2 (its CPU time past its start-up's), not while it starts (a failed start falls back).
    const { report } = await observed(text, { timeoutMs: 60_000 }, () => {
      if (killed !== undefined) process.kill(killed, 'SIGKILL');
    }, (second) => {
      if ((cpuMs(second.pid) ?? 0) < 2_000) return false;
      killed = second.pid;
      return true;
    });
    expect(killed).toBeDefined();
    const z = byName(report, 'z');
    expect(z.converted.ok).toBe(false);
    expect(reasonOf(z), reasonOf(z)).not.toMatch(/Coq refuses that line/);
  });
});

describe('▶ Convert\'s second reading: what it refuses and why (attack, real coqidetop and arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '60']);
  const run = (text: string): Promise<VFileReport> => vFileDerivations(text, { timeoutMs: 30_000 });
  /** Runs a converted item's lines on a fresh channel (default environment); the ERR of each. */
  const errs = async (t: VFileTheoremReport): Promise<string[]> => {
    if (!t.converted.ok) throw new Error(`not converted: ${t.converted.reason}`);
    return (await real.session(t.converted.lines)).map((r) => r.ERR);
  };
  const Z = 'Lemma z : 1 = 1. Proof. reflexivity. Qed.';

  // Each: a left-out admitted proof that a later kept sentence needs. Session 16: Coq refuses that sentence on the second
  // reading, so it is left out too; z, which needs none of it, converts and its item goes through. A sentence that closes a
  // block (`End M` of a module whose field was left out) cannot be left out alone: z is then refused at its line.
  const needs: [string, string, number][] = [
    ['an admitted Definition used by a later Definition', 'Definition f : nat -> nat. Admitted.\nDefinition g := f 0.', 2],
    ['Hint Resolve of an admitted lemma', 'Lemma a : forall n : nat, n = n. Admitted.\nHint Resolve a : core.', 2],
    ['an admitted Instance needed by a later Definition', 'Class C := { c : nat }.\nInstance i : C. Admitted.\nDefinition use := c.', 3],
    ['Existing Instance of an admitted lemma', 'Class C := { c : nat }.\nLemma i : C. Admitted.\nExisting Instance i.', 3],
    ['a notation over an admitted definition', "Definition f : nat -> nat. Admitted.\nNotation \"'F' x\" := (f x) (at level 10).", 2],
    ['a `<:` module whose field was admitted', 'Module Type T. Parameter p : nat -> nat. End T.\nModule M <: T.\nDefinition p : nat -> nat. Admitted.\nEnd M.', 4],
    ['a `:`-sealed module whose axiom field was admitted', 'Module Type T. Axiom ax : 0 = 0. End T.\nModule M : T.\nLemma ax : 0 = 0. Admitted.\nEnd M.', 4],
    ['a section\'s admitted lemma used after End', 'Section S. Variable n : nat.\nLemma a : n = n. Admitted.\nEnd S.\nDefinition d := a 0.', 4],
    ['Include of a module holding an admitted lemma, the copy used', 'Module M. Lemma a : 0 = 0. Admitted. End M.\nModule K. Include M. End K.\nDefinition d := K.a.', 3],
    ['Arguments on an admitted definition', 'Definition f (A : Type) : A -> A. Admitted.\nArguments f {A} _.', 2],
    ['an Ltac definition term naming an admitted lemma (interned at definition)', 'Lemma a : 0 = 0. Admitted.\nDefinition d : 0 = 0 := ltac:(exact a).', 2],
  ];
  for (const [what, text, line] of needs) {
    const closes = /End M\.$/.test(text);
    // (`Include` outside a module type, which a document refuses, is left out like a refused sentence.)
    const title = closes ? `the later theorem is refused at line ${line}, naming the admitted proof` : 'what needs it is left out too, and the later theorem converts and goes through';
    it(`${what}: ${title}`, { timeout: 120_000 }, async () => {
      const r = await run(`${text}\n${Z}\n`);
      expect(r.stopped, JSON.stringify(r.stopped)).toBeUndefined();
      const z = byName(r, 'z');
      if (closes) {
        expect(reasonOf(z)).toMatch(new RegExp(`^its DEFINE would stop at line ${line}: with what is not proved left out of it \\(.*\\(line \\d+, admitted\\).*\\), Coq refuses that line: `));
        return;
      }
      expect(z.converted.ok, reasonOf(z)).toBe(true);
      expect(await errs(z)).toEqual((z.converted.ok ? z.converted.lines : []).map(() => ''));
    });
  }

  it('left-out proofs nothing later needs: the theorem converts and its item goes through in a document', { timeout: 120_000 }, async () => {
    const r = await run(['Module Type T. Parameter p : nat. End T.', 'Module M <: T. Definition p := 0. Lemma extra : p = 1. Admitted. End M.', 'Lemma a : True. Admitted.', 'Lemma b : True. Proof. exact a. Qed.', 'Definition k := M.p.', 'Lemma z : k = 0. Proof. reflexivity. Qed.'].join('\n'));
    const z = byName(r, 'z');
    expect(z.converted.ok, reasonOf(z)).toBe(true);
    expect(await errs(z)).toEqual((z.converted.ok ? z.converted.lines : []).map(() => ''));
  });

  it('the reason names the line Coq refuses, not an earlier or later one, and a theorem before that line still converts', { timeout: 120_000 }, async () => {
    const r = await run(['Lemma a : True. Admitted.', 'Lemma y : 2 = 2. Proof. reflexivity. Qed.', 'Definition ok := 3.', 'Definition bad := a.', Z].join('\n'));
    const y = byName(r, 'y');
    expect(y.converted.ok).toBe(true);
    expect(await errs(y)).toEqual((y.converted.ok ? y.converted.lines : []).map(() => ''));
    // Session 16: `bad` (line 4), which Coq refuses without `a`, is left out; z converts without it.
    const z = byName(r, 'z');
    expect(z.converted.ok, reasonOf(z)).toBe(true);
    expect(z.converted.ok && z.converted.lines[0]).toMatch(/Definition ok := 3\./);
    expect(z.converted.ok && z.converted.lines[0]).not.toMatch(/bad/);
    expect(await errs(z)).toEqual((z.converted.ok ? z.converted.lines : []).map(() => ''));
  });

  // Fixed (session 16): what Coq refuses on the second reading is left out, not a reason to refuse (the Hint goes, z converts).
  // Showed: the second reading runs in a bare coqidetop (Init only, like the file's own reading), but ▶ Convert opens the item
  // as a new document in the default environment (List, Arith… imported). `Hint Resolve app_nil_r : core.` after the file's
  // own admitted `app_nil_r` is left out is refused by the second reading ("The reference app_nil_r was not found"), so `z`
  // is not offered, yet its DEFINE goes through in the document (the name is the library's List.app_nil_r there: see the
  // next test). The reading that judges a DEFINE is not the environment the DEFINE runs in.
  it('false refusal: a DEFINE the document accepts (a library lemma of the same name) is refused by the second reading', { timeout: 120_000 }, async () => {
    const r = await run(`Lemma app_nil_r : forall (A : Type) (l : list A), app l nil = l. Admitted.\nHint Resolve app_nil_r : core.\n${Z}\n`);
    expect(reasonOf(byName(r, 'z'))).toBe('');
  });

  it('…the DEFINE that conversion would carry goes through in a document (default environment)', { timeout: 120_000 }, async () => {
    const rs = await real.session(['DEFINE "Hint Resolve app_nil_r : core."', 'GOAL z "1 = 1"', 'APPLY reflexivity', 'END']);
    expect(rs.map((x) => x.ERR)).toEqual(['', '', '', '']);
  });

  // Fixed (session 16): the reason lists what was left out before the refused line by name, line and why.
  // Showed: a proved theorem resting on an admitted one was left out too, but the reason listed only the admitted proofs.
  // (Since session 16 `d`, which Coq refuses without `b`, is left out as well: z's own proof, which names `d`, is what Coq refuses.)
  it('user view: the reason names the left-out theorem the refused line needs (one resting on an admitted proof)', { timeout: 120_000 }, async () => {
    const r = await run(`Lemma a : True. Admitted.\nLemma b : True. Proof. exact a. Qed.\nDefinition d := b.\nLemma z : True. Proof. let _ := constr:(d) in exact I. Qed.\n`);
    const reason = reasonOf(byName(r, 'z'));
    expect(reason).toMatch(/^its proof does not go through .*Coq refuses line 4: The reference d was not found/);
    expect(reason.replace(/Coq refuses line .*/, '')).toMatch(/\bb \(line 2, resting on an admitted proof\)/);
  });

  // Fixed (session 16): the reason ends with what to do.
  // Showed: every other refusal of ▶ Convert ends with what to do; this one stopped at Coq's message.
  it('user view: the reason tells the user what to do (prove the left-out proof the line needs)', { timeout: 120_000 }, async () => {
    const r = await run(`Lemma a : forall n : nat, n = n. Admitted.\nDefinition d := a.\nLemma z : True. Proof. let _ := constr:(d) in exact I. Qed.\n`);
    const reason = reasonOf(byName(r, 'z'));
    expect(reason).toMatch(/^its proof does not go through/);
    expect(reason.replace(/^.*Coq refuses line \d+: /, '')).toMatch(/prove what it needs in the file first/);
  });

  // Fixed (session 16): the reason lists the five left-out proofs nearest the line, and how many earlier.
  // Showed: with 30 admitted lemmas before `Hint Resolve a30`, the reason carried all 30 names.
  it('user view: the reason names the admitted proof the refused line needs, not every admitted proof before it', { timeout: 120_000 }, async () => {
    const lemmas = Array.from({ length: 30 }, (_, i) => `Lemma a${i + 1} : ${i + 1} = ${i + 1}. Admitted.`);
    const r = await run(`${lemmas.join('\n')}\nDefinition d := a30.\nLemma z : True. Proof. let _ := constr:(d) in exact I. Qed.\n`);
    const reason = reasonOf(byName(r, 'z'));
    expect(reason).toMatch(/^its proof does not go through with what is not proved left out of it \(25 earlier, a26 .*a30 \(line 30, admitted\)\)/);
    expect(reason).not.toMatch(/\ba1 \(line 1\b/);
  });

  // Fixed (session 16): the document's policy judges the DEFINE's sentences at conversion.
  // Showed: an aborted attempt is kept in the DEFINE (only admitted proofs and those resting on them are left out, and only
  // finished proofs are searched for tactics a document refuses): `Lemma x : False. Proof. admit. Abort.` before z, with
  // nothing admitted, is offered, and the document refuses the DEFINE ("… (it gives up a goal)").
  it('an Aborted attempt holding `admit` before the theorem: the converted item goes through (or is not offered)', { timeout: 120_000 }, async () => {
    const z = byName(await run(`Lemma x : False. Proof. admit. Abort.\n${Z}\n`), 'z');
    if (z.converted.ok) expect((await errs(z)).filter((e) => e !== '')).toEqual([]);
  });

  // Fixed (session 16): `isQuery` judges what Time/Fail wrap.
  // Showed: `isQuery` (what a conversion's DEFINE and the second reading leave out) looks only at the sentence's first word,
  // so `Time Compute 1 + 1.` (common in teaching files), `Time Check nat.` and `Fail Check (I : False).` are kept; the second
  // reading runs them without complaint (with `a` admitted before), the conversion is offered, and the document refuses its
  // DEFINE at once ("parse error: declaration sentence not allowed: Eval" / "…: Check").
  it('a query under Time or Fail is left out of the DEFINE like a bare one: the converted item goes through', { timeout: 120_000 }, async () => {
    const failed: string[] = [];
    for (const q of ['Time Compute 1 + 1.', 'Time Check nat.', 'Fail Check (I : False).']) {
      const z = byName(await run(`Lemma a : True. Admitted.\n${q}\n${Z}\n`), 'z');
      const bad = z.converted.ok ? (await errs(z)).filter((e) => e !== '') : [reasonOf(z)];
      if (bad.length > 0) failed.push(`${q} ${bad.join('; ')}`);
    }
    expect(failed).toEqual([]);
  });

  // Fixed (session 16): a left-out anonymous Goal is named by its line.
  // Showed: the parenthesis listing the admitted proofs was missing for an anonymous `Goal`.
  it('user view: an anonymous admitted Goal left out is named in the reason, by its line', { timeout: 120_000 }, async () => {
    const r = await run(`Goal False. Admitted.\nDefinition d := Unnamed_thm.\nLemma z : True. Proof. let _ := constr:(d) in exact I. Qed.\n`);
    const reason = reasonOf(byName(r, 'z'));
    expect(reason).toMatch(/^its proof does not go through/);
    expect(reason.replace(/Coq refuses line .*/, '')).toMatch(/a Goal \(line 1, admitted\)/);
  });

  // Fixed (session 16): the document's policy judges the DEFINE's sentences at conversion.
  // Showed (not new in session 16, but the second reading's own gap): the file is read under the read-only policy, which
  // allows `Register` (and `Set Inline Level`, `Declare Left Step`); the DEFINE is judged by the document's policy, which
  // refuses them ("sentence not allowed: Register"). With nothing admitted the second reading never runs; with something
  // admitted it runs the text with no policy at all. Either way the conversion is offered and its DEFINE refused.
  it('a DEFINE carrying `Register` (read-only allows it, a document does not) is not offered', { timeout: 120_000 }, async () => {
    const r = await run(`Register I as arbor.test.I.\n${Z}\n`);
    const z = byName(r, 'z');
    if (z.converted.ok) expect((await errs(z)).filter((e) => e !== '').join('\n')).toBe('');
  });

  // Fixed (session 16): the document's policy judges the DEFINE's sentences at conversion, first line first.
  // Showed: the same, with a left-out admitted lemma and a later line Coq refuses: the reason says the DEFINE stops at
  // line 4 (Coq's refusal) while a document refuses it at line 1 already (the policy); the earlier problem is hidden.
  // (Since: a sentence a document refuses, line 1, is left out of the DEFINE like a proof that is not proved, and line 4,
  // which Coq refuses without `a`, too; z converts without either, and goes through.)
  it('a refusal does not hide an earlier line the document would refuse', { timeout: 120_000 }, async () => {
    const r = await run(`Register I as arbor.test.I.\nLemma a : True. Admitted.\nDefinition k := 1.\nDefinition bad := a.\n${Z}\n`);
    const z = byName(r, 'z');
    expect(z.converted.ok, reasonOf(z)).toBe(true);
    expect(z.converted.ok && z.converted.lines[0]).not.toMatch(/Register|bad/);
    expect(await errs(z)).toEqual((z.converted.ok ? z.converted.lines : []).map(() => ''));
  });
});

describe('▶ Convert\'s second reading stops at the theorem: what it does not read (attack, real coqidetop, arbor-shell, coqc)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '60']);
  const run = (text: string): Promise<VFileReport> => vFileDerivations(text, { timeoutMs: 30_000 });
  /** The converted item of `z` run on a fresh channel: each line's ERR, and whether coqc accepts the document's SCRIPT. */
  const item = async (text: string): Promise<{ errs: string[]; coqc: string }> => {
    const z = byName(await run(text), 'z');
    if (!z.converted.ok) return { errs: [`not converted: ${z.converted.reason}`], coqc: 'not converted' };
    const rs = await real.session([...z.converted.lines, 'SCRIPT']);
    const c = await runCoqc(String(rs.at(-1)?.RESPONSE), { killAfterMs: 60_000 });
    return { errs: rs.slice(0, -1).map((r) => r.ERR).filter((e) => e !== ''), coqc: c.ok ? 'accepted' : c.output.replace(/\s+/g, ' ').slice(0, 200) };
  };

  // Left (session 16): z is now refused at conversion (its proof does not go through on the second reading), not offered
  // and failing; a module type's admitted lemma is a field, which Arbor cannot declare without `Admitted`.
  // Shows: an admitted lemma inside a module type is left out of the DEFINE as an admitted proof, which shrinks the
  // signature: `Module M : T` still goes through on the second reading (which stops before z), but M's `l` is now hidden
  // by the seal, and z's own proof `exact M.l` fails in the document ("The reference M.l was not found"). z rests on nothing
  // admitted (M.l is proved in M), so it is offered. The second reading never reads the theorem's own statement and tactics.
  it.fails('an admitted lemma in a module type, left out: a theorem using the sealed module\'s proved field goes through as converted', { timeout: 120_000 }, async () => {
    const r = await item('Module Type T. Parameter x : nat. Lemma l : x = x. Admitted. End T.\nModule M : T. Definition x := 0. Lemma l : x = x. Proof. reflexivity. Qed. End M.\nLemma z : M.x = M.x. Proof. exact M.l. Qed.\n');
    expect(r.errs).toEqual([]);
  });

  // Left (session 16): z is now refused at conversion (its proof does not go through on the second reading), not offered
  // and failing; a module type's admitted lemma is a field, which Arbor cannot declare without `Admitted`.
  // Shows: the same inside a functor over T: `X.l` is a field of the functor's parameter (a premise, not an admitted
  // proof, so z is offered), but with T's admitted `l` left out of the DEFINE, `APPLY exact X.l` fails ("The reference X.l
  // was not found"); only END's HAMMER closes the goal afterwards.
  it.fails('…and a functor\'s theorem using its parameter\'s field that T declared by an admitted lemma', { timeout: 120_000 }, async () => {
    const r = await item('Module Type T. Parameter x : nat. Lemma l : x = x. Admitted. End T.\nModule F (X : T). Lemma z : X.x = X.x. Proof. exact X.l. Qed. End F.\n');
    expect(r.errs).toEqual([]);
  });

  // Held: z's own proof names the admitted `a` in a branch that fails at run time (`first [apply a | exact I]`: `a` does
  // not fit `True`), so z's term does not use `a` and z is offered; in the document `a` was left out, and the unbound name
  // fails inside `first` at run time too, which goes on to `exact I`.
  it('a theorem whose own tactics name a left-out admitted lemma in a failing branch: the converted item goes through', { timeout: 120_000 }, async () => {
    const r = await item('Lemma a : forall n : nat, n + 0 = n. Admitted.\nLemma z : True. Proof. first [apply a | exact I]. Qed.\n');
    expect(r.errs).toEqual([]);
  });

  // Shows: an admitted `Next Obligation` is left out, the `Program Definition` that opened it is kept: the second reading
  // accepts it (obligations may stay pending up to z), the item goes through in the shell, but coqc refuses the document's
  // SCRIPT ("Unsolved obligations when closing file … p has unsolved obligations"): Coq refuses the DEFINE's text only at
  // the end of the file, where the second reading never goes.
  it.fails('a left-out admitted Program obligation: coqc accepts the converted document\'s SCRIPT', { timeout: 120_000 }, async () => {
    const r = await item('From Coq Require Import Program.\nProgram Definition p : {n : nat | n = 1} := 0.\nNext Obligation. Admitted.\nLemma z : 1 = 1. Proof. reflexivity. Qed.\n');
    expect(r.errs).toEqual([]);
    expect(r.coqc).toBe('accepted');
  });

  // Fixed (session 16): the converted DEFINE opens a module still open at the theorem without its signature.
  // Showed: z inside `Module M <: T` after M's admitted field `p`: the DEFINE leaves M open, the second reading stops before
  // z and so never reaches an `End M`, the item goes through, and the SCRIPT (which closes M for coqc) is refused: "The
  // field p is missing in Attempt.M". (The theorems after `End M` are refused with this reason; the ones inside are not.
  // Related to vfa.attack.test.ts's left case, here with the field admitted before the theorem.)
  it('a theorem inside a `<:` module after its admitted field: coqc accepts the converted document\'s SCRIPT', { timeout: 120_000 }, async () => {
    const r = await item('Module Type T. Parameter p : nat. End T.\nModule M <: T.\nDefinition p : nat. Admitted.\nLemma z : 1 = 1. Proof. reflexivity. Qed.\nEnd M.\n');
    expect(r.errs).toEqual([]);
    expect(r.coqc).toBe('accepted');
  });

  // Fixed (session 16): Coq says which of the starting context are section variables (`Locate Term`), and those are not introduced.
  // Showed (not the second reading's, nothing is admitted here): a theorem inside an open section that uses its `Variable n`
  // converts to `GOAL z "n + 0 = n + 0"` then `APPLY intros n` (the start's context, section variables included, taken as
  // binders); in the document the section is open, n is already a variable, and the APPLY fails ("n is already used").
  it('a theorem in a section using its Variable: the converted item goes through', { timeout: 120_000 }, async () => {
    const r = await item('Section S. Variable n : nat.\nLemma z : n + 0 = n + 0. Proof. reflexivity. Qed.\nEnd S.\n');
    expect(r.errs).toEqual([]);
  });

  // Fixed (session 16): a sentence stopped by Arbor's limit per sentence is left out, and said to be so, never "Coq refuses … timeout".
  // Showed: the reason read "Coq refuses that line: timeout".
  it('user view: a second reading stopped by the time limit says so, not "Coq refuses that line: timeout"', { timeout: 120_000 }, async () => {
    const r = await vFileDerivations(`Lemma a : True. Admitted.\n${SLOW_WITHOUT_A}\nLemma z : 1 = 1. Proof. reflexivity. Qed.\nLemma y : True. Proof. let _ := constr:(d) in exact I. Qed.\n`, { timeoutMs: 3_000 });
    // z needs nothing of line 2: it converts without it.
    expect(byName(r, 'z').converted.ok).toBe(true);
    const reason = reasonOf(byName(r, 'y'));
    expect(reason).toMatch(/^its proof does not go through .*\(line 2\)/);
    expect(reason).not.toMatch(/: timeout/);
  });
});

describe('▶ Convert\'s second reading: a larger file with many admitted lemmas (attack)', () => {
  afterEach(async () => {
    await noneLeft();
  });

  it('150 admitted lemmas between 150 proved ones: each proved one converts, in reasonable time; the file after a refused line says so', { timeout: 170_000 }, async () => {
    const parts: string[] = [];
    for (let i = 0; i < 150; i++) parts.push(`Lemma a${i} : ${i} = ${i}. Admitted.`, `Definition k${i} := ${i}.`, `Lemma p${i} : k${i} = ${i}. Proof. reflexivity. Qed.`);
    parts.push('Definition late := a149.', 'Lemma q : 0 = 0. Proof. reflexivity. Qed.');
    const { report, ms, most } = await observed(parts.join('\n'), { timeoutMs: 30_000 });
    expect(report.stopped).toBeUndefined();
    for (let i = 0; i < 150; i++) expect(byName(report, `p${i}`).converted.ok, `p${i}`).toBe(true);
    // Session 16: `late` (line 451), refused without a149, is left out; q converts without it.
    const q = byName(report, 'q').converted;
    expect(q.ok).toBe(true);
    expect(q.ok && q.lines[0]).not.toMatch(/late/);
    expect(most).toBe(2);
    const size = JSON.stringify(report).length;
    console.log(`150 admitted + 150 proved: ${(ms / 1000).toFixed(1)} s, report ${Math.round(size / 1024)} KiB`);
    expect(ms).toBeLessThan(150_000);
  });

  // Fixed (session 16): a DEFINE over a document's 256 KiB is not offered, and the reason says what to do.
  // Showed: the second reading runs the DEFINE's text sentence by sentence, so it never sees what a document refuses before
  // Coq runs anything: a DEFINE over 256 KiB ("declaration too large", vernacular-policy.ts LIMIT_BYTES). A file of ~300 KiB
  // of declarations before a theorem (an admitted lemma among them, so the second reading runs) offers the theorem, and
  // the document refuses its first line. (The same without anything admitted: no reading at all judges the size.)
  it('a DEFINE larger than a document accepts is not offered', { timeout: 120_000 }, async () => {
    const sum = Array.from({ length: 120 }, () => '1').join(' + ');
    const defs = Array.from({ length: 600 }, (_, i) => `Definition big${i} : nat := ${sum}.`);
    const { report } = await observed(`Lemma a : True. Admitted.\n${defs.join('\n')}\nLemma z : 1 = 1. Proof. reflexivity. Qed.\n`, { timeoutMs: 30_000 });
    const z = byName(report, 'z');
    const first = z.converted.ok ? (z.converted.lines[0] ?? '') : '';
    expect(first.length).toBeLessThanOrEqual(256 * 1024);
  });
});
