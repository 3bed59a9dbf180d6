import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../process/process-manager.ts';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { finished, quoted as q, useRealShell, useScratchDir } from './testing/real-shell.ts';

/**
 * Attacks (atk-sections) on END's judge reading an open section's variables and `Let`s through the plugin
 * (`Variable <name>` lines, walked each time) and bound-module globals (closed-constants.ts). A passing test: the
 * judge held. Real arbor-shell and coqidetop.
 */
const ADMIT = 'Coq.Compat.AdmitAxiom.proof_admitted';
const REQUIRE = 'Require Coq.Compat.AdmitAxiom.';

type End = ShellResponse & { PREMISES?: { kind: string; name: string }[]; ASSUMPTIONS?: string[]; CONDITIONAL?: string };
const names = (r: ShellResponse | undefined): string[] => ((r as End | undefined)?.PREMISES ?? []).map((p) => p.name).sort();
const dump = (rs: ShellResponse[]): string => JSON.stringify(rs.map((r) => ({ ERR: r.ERR, P: (r as End).PREMISES, A: (r as End).ASSUMPTIONS })));
const unsound = /^unsound: depends on .*proof_admitted/;

describe('section variables and Let through the plugin (real arbor-shell)', () => {
  const { session, channel } = useRealShell(['--timeout', '20']);

  it('a Let on proof_admitted reached through another Let: refused', async () => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} Section S. Let h : False := ${ADMIT}. Let h2 : False := h.`)}`, `GOAL t ${q('False')}`, 'APPLY (exact h2)', 'END']);
    expect(rs[3]?.ERR, dump(rs)).toMatch(unsound);
  }, 180_000);

  it('an opaque Let (Qed) on proof_admitted, through a lemma of the section: refused (its body is inlined at End)', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Section S. Let h : False. Proof. exact ${ADMIT}. Qed.`)}`,
      `DEFINE ${q('Definition l : False := h.')}`,
      `GOAL t ${q('False')}`, 'APPLY (exact l)', 'END',
    ]);
    expect(rs[4]?.ERR, dump(rs)).toMatch(unsound);
  }, 180_000);

  it('a lemma of the section on an admitted Let, judged inside, then used after End: still refused', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Section S. Variable c : nat. Let h : False := ${ADMIT}. Definition l : c = c /\\ False := conj eq_refl h.`)}`,
      `GOAL t1 ${q('False')}`, 'APPLY (exact (proj2 l))', 'END',
      `DEFINE ${q('End S.')}`,
      `GOAL t2 ${q('False')}`, 'APPLY (exact (proj2 (l 0)))', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toMatch(unsound);
    expect(rs[4]?.ERR).toBe('');
    expect(rs[7]?.ERR, dump(rs)).toMatch(unsound);
  }, 180_000);

  // The memo of `Top.l`, walked inside the section (`Section Variables: c`), must not outlive `End`: after it, `l`
  // takes `c` as an argument and no section is open, so no premise is left.
  it('End of a section, then a theorem on its discharged lemma: no stale premise', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Variable c : nat. Definition l : nat := c.')}`,
      `GOAL t1 ${q('l = l')}`, 'APPLY (reflexivity)', 'END',
      `DEFINE ${q('End S.')}`,
      `GOAL t2 ${q('l 0 = l 0')}`, 'APPLY (reflexivity)', 'END',
    ]);
    expect(names(rs[3]), dump(rs)).toEqual(['c']);
    expect(finished(rs[7]), dump(rs)).toBe(true);
    expect((rs[7] as End).PREMISES, dump(rs)).toBeUndefined();
    expect((rs[7] as End).ASSUMPTIONS?.join('\n') ?? '', dump(rs)).not.toMatch(/section variable/);
  }, 180_000);

  // The same through the memo of the first theorem itself, in a second section with a variable of the same name.
  it('a theorem of a closed section used in a new section with a namesake variable: no premise of the new section', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Variable c : nat.')}`,
      `GOAL t1 ${q('c = c')}`, 'APPLY (reflexivity)', 'END',
      `DEFINE ${q('End S. Section S2. Variable c : nat.')}`,
      `GOAL t2 ${q('0 = 0')}`, 'APPLY (exact (t1 0))', 'END',
    ]);
    expect(names(rs[3]), dump(rs)).toEqual(['c']);
    expect(finished(rs[7]), dump(rs)).toBe(true);
    expect((rs[7] as End).PREMISES, dump(rs)).toBeUndefined();
  }, 180_000);

  it('a hypothesis named proof_admitted: a premise when used, and the real axiom still refused', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Section S. Hypothesis proof_admitted : False.`)}`,
      `GOAL t1 ${q('False')}`, 'APPLY (exact proof_admitted)', 'END',
      `GOAL t2 ${q('False')}`, `APPLY (exact ${ADMIT})`, 'END',
      `GOAL t3 ${q('False /\\ False')}`, 'APPLY (split; [exact t1 | exact t2])', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3])).toEqual(['proof_admitted']);
    expect(rs[6]?.ERR, dump(rs)).toMatch(unsound);
    // t2 was refused: GOAL t3 may not even see t2 (the proof was not closed); if it did, END refuses.
    if (rs[8]?.ERR === '') expect(rs[9]?.ERR, dump(rs)).toMatch(unsound);
  }, 240_000);

  it('a hypothesis named classic beside the trusted library classic (memoised before the section): proved, premise classic', async () => {
    const rs = await session([
      `DEFINE ${q('Require Import Coq.Logic.Classical_Prop.')}`,
      `GOAL t0 ${q('forall P : Prop, P \\/ ~ P')}`, 'APPLY (exact classic)', 'END',
      `DEFINE ${q('Section S. Hypothesis classic : False.')}`,
      `GOAL t1 ${q('(forall P : Prop, P \\/ ~ P) /\\ False')}`, 'APPLY (split; [exact t0 | exact classic])', 'END',
    ]);
    expect(finished(rs[3]), dump(rs)).toBe(true);
    expect(rs[7]?.ERR, dump(rs)).toBe('');
    expect(names(rs[7]), dump(rs)).toEqual(['classic']);
    expect((rs[7] as End).ASSUMPTIONS?.join('\n'), dump(rs)).toMatch(/Classical_Prop\.classic/);
  }, 240_000);

  it('variables named Top, Coq, nat-like, with a prime and a unicode letter, used only in the type: all premises', async () => {
    const rs = await session([
      `DEFINE ${q("Section S. Variable Top : nat. Variable Coq : nat. Hypothesis plus_n_O : False. Variables (c' α : nat). Variable P : Prop.")}`,
      `GOAL t ${q("Top + Coq = Top + Coq /\\ c' = α -> P -> P")}`, 'APPLY (intros _ p; exact p)', 'END',
      `GOAL u ${q('1 = 2')}`, 'APPLY (destruct plus_n_O)', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3]), dump(rs)).toEqual(['Coq', 'P', 'Top', "c'", 'α'].sort());
    expect(names(rs[6]), dump(rs)).toEqual(['plus_n_O']);
  }, 240_000);

  it('Context with implicit and instance binders, a Let shadowing a global on the axiom', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Definition d : False := ${ADMIT}. Class K := { k : False }. Section S. Context {x : nat} \`{K}. Let d : nat := 0.`)}`,
      `GOAL t ${q('d = x -> False')}`, 'APPLY (intros _; exact k)', 'END',
      `GOAL u ${q('False')}`, 'APPLY (exact Top.d)', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3]).length, dump(rs)).toBe(2);
    expect(rs[6]?.ERR, dump(rs)).toMatch(unsound);
  }, 240_000);

  it('nested sections: outer and inner variables both premises; after the inner End only the outer one', async () => {
    const rs = await session([
      `DEFINE ${q('Section A. Variable a : nat. Section B. Hypothesis b : a = 1.')}`,
      `GOAL t ${q('a = 1')}`, 'APPLY (exact b)', 'END',
      `DEFINE ${q('End B.')}`,
      `GOAL u ${q('a = 1 -> a = 1')}`, 'APPLY (exact t)', 'END',
    ]);
    expect(names(rs[3]), dump(rs)).toEqual(['a', 'b']);
    expect(names(rs[7]), dump(rs)).toEqual(['a']);
  }, 240_000);

  it('REVERT inside a section below a lemma judged on a variable, then the lemma redefined on the axiom: refused', async () => {
    const send = await channel();
    const rs: ShellResponse[] = [];
    for (const r of [`DEFINE ${q(`${REQUIRE} Section S. Hypothesis c : False.`)}`, `DEFINE ${q('Definition l : False := c.')}`, `GOAL a ${q('False')}`, 'APPLY (exact l)', 'END']) rs.push(await send(r));
    expect(names(rs[4]), dump(rs)).toEqual(['c']);
    const step = (rs[1] as { STEP?: number }).STEP as number;
    rs.push(await send(`REVERT ${step - 1}`));
    for (const r of [`DEFINE ${q(`Definition l : False := ${ADMIT}.`)}`, `GOAL b ${q('False')}`, 'APPLY (exact l)', 'END']) rs.push(await send(r));
    expect(rs[6]?.ERR, dump(rs)).toBe('');
    expect(rs[9]?.ERR, dump(rs)).toMatch(unsound);
  }, 240_000);

  it('REVERT to before the Section, then the theorem\'s name redefined on the axiom and used: refused', async () => {
    const send = await channel();
    const rs: ShellResponse[] = [];
    for (const r of [`DEFINE ${q(REQUIRE)}`, `DEFINE ${q('Section S. Hypothesis c : False.')}`, `GOAL t1 ${q('False')}`, 'APPLY (exact c)', 'END']) rs.push(await send(r));
    expect(names(rs[4]), dump(rs)).toEqual(['c']);
    const step = (rs[1] as { STEP?: number }).STEP as number;
    rs.push(await send(`REVERT ${step - 1}`));
    for (const r of [`DEFINE ${q(`Definition t1 : False := ${ADMIT}.`)}`, `GOAL t2 ${q('False')}`, 'APPLY (exact t1)', 'END']) rs.push(await send(r));
    expect(rs[6]?.ERR, dump(rs)).toBe('');
    expect(rs[9]?.ERR, dump(rs)).toMatch(unsound);
  }, 240_000);

  it('two modules each with a section and a theorem t: the second (on an admitted Let) refused', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Module M1. Section A. Hypothesis c : False.`)}`,
      `GOAL t ${q('False')}`, 'APPLY (exact c)', 'END',
      `DEFINE ${q(`End A. End M1. Module M2. Section A. Let c : False := ${ADMIT}.`)}`,
      `GOAL t ${q('False')}`, 'APPLY (exact c)', 'END',
    ]);
    expect(names(rs[3]), dump(rs)).toEqual(['c']);
    expect(rs[7]?.ERR, dump(rs)).toMatch(unsound);
  }, 240_000);
});

describe('more section cases (real arbor-shell)', () => {
  const { session } = useRealShell(['--timeout', '20']);
  const dir = useScratchDir('section-judge-');

  // Coq's Print Assumptions never walks a section variable's type: inside the section `t` shows only `c` and `g`,
  // after `End` (t : forall c : D, (D -> True) -> True) it shows proof_admitted, which D's body rests on.
  it('premises whose types rest on an admitted definition: END must not say proved without proof_admitted', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Definition D : Prop := ${ADMIT} = ${ADMIT}. Section S. Variable c : D. Variable g : D -> True.`)}`,
      `GOAL t ${q('True')}`, 'APPLY (exact (g c))', 'END', 'SCRIPT',
    ]);
    expect(rs[2]?.ERR, dump(rs)).toBe('');
    // What coqc says of Arbor's own SCRIPT (it closes the section): t rests on proof_admitted.
    await writeFile(join(dir(), 'S.v'), `${rs[4]?.RESPONSE as string}\nPrint Assumptions t.\n`);
    const c = await runProcess({ program: 'coqc', args: ['S.v'], cwd: dir(), timeoutMs: 120_000, sandbox: { writable: [dir()] } });
    expect(c.exitCode, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/proof_admitted/);
    if (rs[3]?.ERR === '') expect((rs[3] as End).ASSUMPTIONS?.join('\n') ?? '', dump(rs)).toMatch(/proof_admitted/);
    else expect(rs[3]?.ERR, dump(rs)).toMatch(unsound);
  }, 180_000);

  // The same blind spot reused: `t` judged inside the section is remembered as resting on `c` and `g` only; after
  // `End`, `u` mentions only `t`, `I` and `True`, and Coq's Print Assumptions of `u` lists proof_admitted (through
  // t's statement, forall c : D, ...). END must not call `u` proved.
  it('after End, a theorem on the remembered section theorem whose premises\' types rest on the axiom: refused', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Definition D : Prop := (fun _ : False => True) ${ADMIT}. Section S. Variable c : D. Variable g : D -> True.`)}`,
      `GOAL t ${q('True')}`, 'APPLY (exact (g c))', 'END',
      `DEFINE ${q('End S.')}`,
      `GOAL u ${q('True')}`, 'APPLY (exact (t I (fun _ : True => I)))', 'END',
    ]);
    // Since the plugin follows the variables' types, `t` itself is refused in the section (as `coqc`'s Print
    // Assumptions of `t` after `End` says), so nothing remembered can carry the axiom past `End`.
    expect(rs[3]?.ERR, dump(rs)).toMatch(unsound);
    expect(rs[6]?.ERR, dump(rs)).toMatch(/t was not found/);
  }, 180_000);

  it('variables named Assumptions, Opaque and with a no-break space: honest, all premises', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Variable Assumptions : nat. Variable Opaque : nat. Variable a\u00A0b : nat.')}`,
      `GOAL t ${q('Assumptions + Opaque = Assumptions + Opaque /\\ a\u00A0b = a\u00A0b')}`, 'APPLY (split; reflexivity)', 'END',
    ]);
    expect(rs[0]?.ERR, dump(rs)).toBe('');
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3]), dump(rs)).toEqual(['Assumptions', 'Opaque', 'a\u00A0b'].sort());
  }, 180_000);

  it('a Let over a variable: the variable is the premise; a universe-polymorphic section: honest', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Variable c : nat. Let x := c + 1.')}`,
      `GOAL t ${q('x = x')}`, 'APPLY (reflexivity)', 'END',
      `DEFINE ${q('End S. #[universes(polymorphic)] Section P. Variable A : Type.')}`,
      `GOAL id' ${q('A -> A')}`, 'APPLY (intro a; exact a)', 'END',
    ]);
    expect(names(rs[3]), dump(rs)).toEqual(['c']);
    expect(rs[4]?.ERR, dump(rs)).toBe('');
    expect(rs[7]?.ERR, dump(rs)).toBe('');
    expect(names(rs[7]), dump(rs)).toEqual(['A']);
  }, 180_000);

  // A `Let` is discharged as a let-in (`t = let h : D := I in …`): its type enters t's body at `End`. Inside the
  // section, Coq's Print Assumptions of `h` (and of `t`) walks the body `I` only: no premise, no axiom.
  it('a Let whose type (not body) rests on an admitted definition: END must not say proved unconditionally', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Definition D : Prop := (fun _ : False => True) ${ADMIT}. Section S. Let h : D := I.`)}`,
      `GOAL t ${q('True')}`, 'APPLY (exact ((fun _ : True => I) h))', 'END', 'SCRIPT',
    ]);
    expect(rs[2]?.ERR, dump(rs)).toBe('');
    await writeFile(join(dir(), 'L.v'), `${rs[4]?.RESPONSE as string}\nPrint Assumptions t.\n`);
    const c = await runProcess({ program: 'coqc', args: ['L.v'], cwd: dir(), timeoutMs: 120_000, sandbox: { writable: [dir()] } });
    expect(c.exitCode, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/proof_admitted/);
    expect(finished(rs[3]) && (rs[3] as End).PREMISES === undefined, dump(rs)).toBe(false);
  }, 180_000);

  // The same blind spot on premises: `End` abstracts H (it occurs in h's type, hence in t's let-in), so Arbor's
  // SCRIPT gives `t : False -> True`; Coq's Print Assumptions inside the section says closed.
  it('a Let whose type mentions a hypothesis: the hypothesis must be listed as a premise', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Hypothesis H : False. Let h : (fun _ : False => True) H := I.')}`,
      `GOAL t ${q('True')}`, 'APPLY (exact ((fun _ : True => I) h))', 'END', 'SCRIPT',
    ]);
    expect(rs[2]?.ERR, dump(rs)).toBe('');
    await writeFile(join(dir(), 'H.v'), `${rs[4]?.RESPONSE as string}\nCheck t.\n`);
    const c = await runProcess({ program: 'coqc', args: ['H.v'], cwd: dir(), timeoutMs: 120_000, sandbox: { writable: [dir()] } });
    expect(c.exitCode, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/False -> True/);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3]), dump(rs)).toEqual(['H']);
  }, 180_000);

  // `Proof using H` makes `End` abstract H from `l` (l : False -> True), hence from `t`, though neither body uses it;
  // Coq's Print Assumptions inside the section says closed for both.
  it('a lemma with Proof using H, used by the theorem: H must be listed as a premise', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Hypothesis H : False. Lemma l : True. Proof using H. exact I. Qed.')}`,
      `GOAL t ${q('True')}`, 'APPLY (exact l)', 'END', 'SCRIPT',
    ]);
    if (/not allowed/.test(rs[0]?.ERR ?? '')) return;
    expect(rs[0]?.ERR, dump(rs)).toBe('');
    await writeFile(join(dir(), 'U.v'), `${rs[4]?.RESPONSE as string}\nCheck t.\n`);
    const c = await runProcess({ program: 'coqc', args: ['U.v'], cwd: dir(), timeoutMs: 120_000, sandbox: { writable: [dir()] } });
    expect(c.exitCode, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/False -> True/);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3]), dump(rs)).toEqual(['H']);
  }, 180_000);

  it('Set Default Proof Using "All": the theorem abstracts every section variable, END must list them', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Hypothesis H : False. Set Default Proof Using "All".')}`,
      `GOAL t ${q('True')}`, 'APPLY (exact I)', 'END', 'SCRIPT',
    ]);
    if (/not allowed/.test(rs[0]?.ERR ?? '')) return;
    expect(rs[0]?.ERR, dump(rs)).toBe('');
    await writeFile(join(dir(), 'A.v'), `${rs[4]?.RESPONSE as string}\nCheck t.\n`);
    const c = await runProcess({ program: 'coqc', args: ['A.v'], cwd: dir(), timeoutMs: 120_000, sandbox: { writable: [dir()] } });
    expect(c.exitCode, c.stderr).toBe(0);
    if (/False -> True/.test(c.stdout)) expect(names(rs[3]), dump(rs)).toEqual(['H']);
    else expect(rs[3]?.ERR, dump(rs)).toBe('');
  }, 180_000);

  it('an honest Let with a closed body: proved, no premise', async () => {
    const rs = await session([`DEFINE ${q('Section S. Variable c : nat. Let two := 2.')}`, `GOAL t ${q('two = 2')}`, 'APPLY (reflexivity)', 'END']);
    expect(finished(rs[3]), dump(rs)).toBe(true);
    expect((rs[3] as End).PREMISES, dump(rs)).toBeUndefined();
  }, 180_000);

  it('an honest lia over section variables and a hypothesis: proved under exactly those premises', async () => {
    const rs = await session([
      `DEFINE ${q('Section S. Variables (a b : nat). Hypothesis H : a < b. Variable unused : nat.')}`,
      `GOAL t ${q('a + 1 <= b')}`, 'APPLY (lia)', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(names(rs[3]), dump(rs)).toEqual(['H', 'a', 'b']);
  }, 180_000);

  it('nested sections with a variable of the same name in both (or Coq refuses the second)', async () => {
    const rs = await session([`DEFINE ${q('Section A. Hypothesis x : False. Section B.')}`, `DEFINE ${q('Variable x : nat.')}`, `GOAL t ${q('False')}`, 'APPLY (exact (Top.x))', 'END']);
    expect(rs[0]?.ERR, dump(rs)).toBe('');
    if (rs[1]?.ERR !== '') return;
    // `Top.x` is no name for a section variable: if Coq took it, whatever it named must be listed.
    if (rs[3]?.ERR === '') expect(rs[4]?.ERR === '' ? names(rs[4]).length : 1, dump(rs)).toBeGreaterThan(0);
  }, 180_000);

  it('Declare Module: its field is an axiom, refused (or not allowed)', async () => {
    const rs = await session([`DEFINE ${q('Module Type Sig. Parameter f : False. End Sig. Declare Module M : Sig.')}`, `GOAL t ${q('False')}`, 'APPLY (exact M.f)', 'END']);
    expect(rs[0]?.ERR === '' ? rs[3]?.ERR : rs[0]?.ERR, dump(rs)).toMatch(/^unsound: depends on .*M\.f|not allowed/);
  }, 180_000);

  it('functor parameters named like the theorem and Hammer: fields are premises, never trusted', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig. Parameter f : False. End Sig. Module F (t : Sig) (Hammer : Sig). Section S. Variable c : nat.')}`,
      `GOAL t ${q('False /\\ False')}`, 'APPLY (split; [exact t.f | exact Hammer.f])', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    const all = (rs[3] as End).ASSUMPTIONS?.join('\n') ?? '';
    expect(all, dump(rs)).toMatch(/t\.f.*field of the functor's parameter/);
    expect(all, dump(rs)).toMatch(/Hammer\.f.*field of the functor's parameter/);
  }, 180_000);

  it('a functor including its parameter (Include X): the included field is not trusted', async () => {
    const rs = await session([`DEFINE ${q('Module Type Sig. Parameter f : False. End Sig. Module F (X : Sig). Include X.')}`, `GOAL t ${q('False')}`, 'APPLY (exact f)', 'END']);
    // Arbor's DEFINE policy refuses Include: held by policy.
    if (/not allowed: Include/.test(rs[0]?.ERR ?? '')) return;
    expect(rs[0]?.ERR, dump(rs)).toBe('');
    if (rs[3]?.ERR === '') expect((rs[3] as End).ASSUMPTIONS?.join('\n') ?? '', dump(rs)).toMatch(/functor's parameter/);
    else expect(rs[3]?.ERR, dump(rs)).toMatch(/^unsound/);
  }, 180_000);

  it('a section theorem on a parameter\'s field, used after End of the section inside the functor: still the field\'s premise', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig. Parameter f : False. End Sig. Module F (X : Sig). Section S. Variable c : nat.')}`,
      `GOAL t ${q('c = c -> False')}`, 'APPLY (intros _; exact X.f)', 'END',
      `DEFINE ${q('End S.')}`,
      `GOAL u ${q('False')}`, 'APPLY (exact (t 0 eq_refl))', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(rs[7]?.ERR, dump(rs)).toBe('');
    expect((rs[7] as End).ASSUMPTIONS?.join('\n') ?? '', dump(rs)).toMatch(/X\.f.*field of the functor's parameter/);
    expect((rs[7] as End).PREMISES, dump(rs)).toBeUndefined();
  }, 180_000);
});

describe('sections inside functors (real arbor-shell)', () => {
  const { session } = useRealShell(['--timeout', '20']);

  it('a section inside a functor: the parameter\'s field and the section variable are both listed as premises', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig. Parameter f : False. End Sig. Module F (X : Sig). Section S. Variable c : nat.')}`,
      `GOAL t ${q('c = c /\\ False')}`, 'APPLY (split; [reflexivity | exact X.f])', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    const all = (rs[3] as End).ASSUMPTIONS?.join('\n') ?? '';
    expect(all, dump(rs)).toMatch(/X\.f.*field of the functor's parameter/);
    expect(all, dump(rs)).toMatch(/\bc\b.*section variable/);
  }, 240_000);

  it('a parameter named like the section variable (c.f and c): both premises, neither trusted', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig. Parameter f : False. End Sig. Module F (c : Sig). Section S. Hypothesis c : True.')}`,
      `GOAL t ${q('True /\\ False')}`, 'APPLY (split; [exact c | exact c.f])', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    const all = (rs[3] as End).ASSUMPTIONS?.join('\n') ?? '';
    expect(all, dump(rs)).toMatch(/c\.f.*field of the functor's parameter/);
    expect(all, dump(rs)).toMatch(/section variable/);
  }, 240_000);

  it('after End of section and functor, the functor applied to a module on the axiom: the theorem through it refused', async () => {
    const rs = await session([
      `DEFINE ${q(`${REQUIRE} Module Type Sig. Parameter f : False. End Sig. Module Bad. Definition f : False := ${ADMIT}. End Bad. Module F (X : Sig). Section S. Variable c : nat.`)}`,
      `GOAL t ${q('c = c -> False')}`, 'APPLY (intros _; exact X.f)', 'END',
      `DEFINE ${q('End S. End F. Module A := F Bad.')}`,
      `GOAL u ${q('False')}`, 'APPLY (exact (A.t 0 eq_refl))', 'END',
    ]);
    expect(rs[3]?.ERR, dump(rs)).toBe('');
    expect(rs[4]?.ERR, dump(rs)).toBe('');
    expect(rs[7]?.ERR, dump(rs)).toMatch(unsound);
  }, 240_000);

  it('a Let of a section in a functor whose parameter is named Coq: the field behind the Let is the parameter\'s premise', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type SigC. Module Compat. Module AdmitAxiom. Parameter proof_admitted : False. End AdmitAxiom. End Compat. End SigC.')}`,
      `DEFINE ${q('Module F (Coq : SigC). Section S. Variable c : nat. Let h : False := Coq.Compat.AdmitAxiom.proof_admitted.')}`,
      `GOAL t ${q('c = c -> False')}`, 'APPLY (intros _; exact h)', 'END',
    ]);
    expect(rs[1]?.ERR, dump(rs)).toBe('');
    expect(rs[4]?.ERR, dump(rs)).toBe('');
    const all = (rs[4] as End).ASSUMPTIONS?.join('\n') ?? '';
    expect(all, dump(rs)).toMatch(/proof_admitted.*field of the functor's parameter/);
    expect(names(rs[4]), dump(rs)).toEqual(['c']);
  }, 240_000);

  it('a Variable outside any section (an axiom): refused or not allowed, never a premise', async () => {
    const rs = await session([`DEFINE ${q('Section S. End S. Variable c : False.')}`, `GOAL t ${q('False')}`, 'APPLY (exact c)', 'END']);
    expect(rs[0]?.ERR === '' ? rs[3]?.ERR : rs[0]?.ERR, dump(rs)).toMatch(/^unsound: depends on .*c|not allowed/);
  }, 240_000);
});
