import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProverError } from '../../shell/prover-session.ts';
import { CoqShells } from '../../batch/coq-shells.ts';
import { runCheckJob } from '../../batch/jobs/check-job.ts';
import { runHammerJob } from '../../batch/jobs/hammer-job.ts';
import { sandboxStatus } from '../../process/process-manager.ts';
import { coqBackend } from './coq-backend.ts';
import { CoqFailure, CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText } from './coq-text-runner.ts';
import { markArborPlugin } from './arbor-plugin.ts';
import { pluginOptions } from './testing/real-client.ts';
import type { PolicyPurpose } from './vernacular-policy.ts';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * Issue 21 attacked from outside, against the real coqidetop (policy level) and the real arbor-shell
 * (protocol level): forbidden sentences through lexical tricks, assumptions in disguise, statements
 * whose meaning is not their text. Each case asserts what must happen; a break found here was fixed
 * beside it (`Export Unset Guard Checking.` passed the policy as an `Export` of module names).
 */
const ALL: PolicyPurpose[] = ['prelude', 'define', 'project', 'fidelity-context'];
const REDIRECT = 'Redirect "arbor_attack" Print nat.';

describe('policy: no forbidden sentence gets past Coq\'s delimiting and the policy', () => {
  let client: CoqideTopClient;
  let start: number;
  beforeAll(async () => {
    // As a channel's coqidetop runs: with Arbor's plugin, which the policy asks where an assumption stands.
    client = await CoqideTopClient.start(pluginOptions());
    markArborPlugin(client);
    start = client.tip;
  });
  afterAll(() => client.dispose());

  const refusal = async (text: string, purpose: PolicyPurpose): Promise<string | undefined> => {
    try {
      await runCoqText(client, text, { purpose, timeoutMs: 10_000 });
      return undefined;
    } catch (e) {
      return (e as Error).message;
    } finally {
      if (client.tip !== start) await client.editAt(start);
    }
  };

  const refused: [string, string, RegExp][] = [
    // Broke before the fix: `Export Set/Unset` (Coq 8.15+) was judged as an `Export` of module names.
    ['Export Unset (guard)', 'Export Unset Guard Checking.', /option not allowed: Guard Checking/],
    ['Export Unset (positivity)', 'Definition a := 1. Export Unset Positivity Checking.', /option not allowed: Positivity Checking/],
    ['Export Unset (universes)', 'Export Unset Universe Checking.', /option not allowed: Universe Checking/],
    ['Global Export Unset', 'Global Export Unset Guard Checking.', /option not allowed|Syntax error/],
    ['#[export] Unset', '#[export] Unset Guard Checking.', /option not allowed: Guard Checking/],
    ['Export Set with a path', 'Export Set Hammer PredictPath "/bin/true".', /not allowed/],
    ['CRLF line ends', 'Definition a1 := 1.\r\nRedirect "x" Print nat.', /not allowed: Redirect/],
    ['CR alone', 'Definition a1 := 1.\rRedirect "x" Print nat.', /not allowed: Redirect/],
    ['a tab after the dot', `Definition a := 1.\t${REDIRECT}`, /not allowed: Redirect/],
    ['a dot glued to a comment', `Definition a := 1.(* x *)${REDIRECT}`, /parse error: Syntax error/],
    ['a zero-width space inside the command', 'Definition a := 1. Re\u200bdirect "x" Print nat.', /parse error/],
    ['a full-width dot', `Definition a := 1\uff0e ${REDIRECT}`, /parse error/],
    ['a homoglyph command (Cyrillic e)', 'R\u0435direct "x" Print nat.', /parse error/],
    ['bidi overrides around it', `Definition a := 1. (* \u202e *) ${REDIRECT} (* \u202c *)`, /not allowed: Redirect/],
    ['five thousand dots in a comment before it', `Definition a := 1. (* ${'a. '.repeat(5000)}*) ${REDIRECT}`, /not allowed: Redirect/],
    ['comment delimiters in a string', `Require Import String. Definition s := "*) ${REDIRECT.replace(/"/g, '""')} (*"%string. ${REDIRECT}`, /not allowed: Redirect/],
    ['nested comments with a string', `(* (* "*)" *) *) ${REDIRECT}`, /not allowed: Redirect/],
    ['a bullet before it in a proof', `Lemma l : True. Proof. - ${REDIRECT}`, /not allowed: Redirect \(inside a proof\)/],
    ['a brace before it in a proof', `Lemma l : True. Proof. { ${REDIRECT}`, /not allowed: Redirect \(inside a proof\)/],
    ['Time prefix (judged as the sentence it times)', `Time ${REDIRECT}`, /not allowed: Redirect/],
    ['Time prefix inside a proof', `Lemma l : True. Proof. Time ${REDIRECT}`, /not allowed: Redirect \(inside a proof\)/],
    ['Fail prefix', 'Fail Drop.', /not allowed: Fail|parse error/],
    ['Drop', 'Drop.', /parse error/],
    ['Cd', 'Cd "/tmp".', /not allowed: Cd/],
    ['Load', 'Load "/etc/passwd".', /not allowed: Load/],
    ['Declare ML Module', 'Declare ML Module "foo".', /not allowed: Declare ML/],
    ['Local Declare ML Module', 'Local Declare ML Module "foo".', /not allowed|parse error/],
    ['Set Hammer PredictPath', 'Set Hammer PredictPath "touch /tmp/x".', /option not allowed/],
    ['Add LoadPath', 'Add LoadPath "/root" as R.', /not allowed: Add/],
    ['a bypass attribute with spaces', '#[ bypass_check ( guard ) ] Fixpoint f (n : nat) : False := f n.', /attribute not allowed/],
    ['a bypass attribute after an allowed one', '#[local, bypass_check(universes)] Definition U := Type.', /attribute not allowed/],
    ['Ltac2 Eval', 'Require Import Ltac2.Ltac2. Ltac2 Eval ().', /not allowed: Ltac2/],
    ['Admitted through Instance proof mode', 'Class K := { k : False }. Instance i : K. Proof. Admitted.', /not allowed: Admitted/],
    ['Program obligation admitted', 'Require Import Program. Program Definition bad : False := _. Admit Obligations.', /not allowed: Admit/],
    ['Local Axiom', 'Local Axiom cheat : False.', /assumptions are not allowed/],
    ['Global Parameter', 'Global Parameter cheat : False.', /assumptions are not allowed/],
    ['a NUL byte', 'Definition a := 1.\u0000', /control characters/],
    ['text over 256 KiB', `Definition a := 1. (* ${'x'.repeat(270_000)} *)`, /too large/],
  ];
  for (const [name, text, why] of refused) {
    it(`refuses: ${name}`, async () => {
      for (const p of ALL) {
        // Assumptions are the purpose of project preludes and fidelity contexts.
        if (/assumptions are not allowed/.test(String(why)) && (p === 'project' || p === 'fidelity-context')) continue;
        expect(await refusal(text, p), p).toMatch(why);
      }
    }, 60_000);
  }

  it('unicode blanks Coq does not treat as blanks (U+2028/9, NBSP, U+3000, BOM) and lone surrogates never smuggle a sentence', async () => {
    for (const ch of ['\u2028', '\u2029', '\u00a0', '\u3000', '\ufeff', '\ud800']) {
      for (const text of [`Definition a := 1.${ch}${REDIRECT}`, `Definition a := 1. Redirect${ch}"x" Print nat.`, `Require Import String. Definition a := "${ch}"%string. ${REDIRECT}`]) {
        const why = await refusal(text, 'define');
        expect(why, JSON.stringify(text)).toBeDefined();
        expect(why, JSON.stringify(text)).toMatch(/^parse error: (Syntax|declaration sentence not allowed: Redirect)/);
      }
    }
  }, 60_000);

  // The unlucky new user: public Coq text that declares no assumption must pass (these were refused).
  it('accepts module types with parameters, axioms, declared instances and Include, as Coq\'s own Structures/Equalities.v writes them', async () => {
    // The whole file (158 sentences): module types, `Include` inside them, functors, `<+`.
    const text = readFileSync('/usr/lib/ocaml/coq/theories/Structures/Equalities.v', 'utf8');
    for (const p of ALL) expect(await refusal(text, p), p).toBeUndefined();
    // `Include` of a module type inside a module (or at the top) would assume its fields: refused.
    expect(await refusal('Module Type T. Parameter c : False. End T. Module M. Include T. End M.', 'define')).toMatch(/not allowed: Include/);
    expect(await refusal('Module Type T. Parameter c : False. End T. Include T.', 'define')).toMatch(/not allowed: Include/);
    // Outside a module type the same sentences still assume things, and a declared module still is refused.
    expect(await refusal('Module Type T. Parameter c : False. End T. Parameter x : nat.', 'define')).toMatch(/assumptions are not allowed/);
    expect(await refusal('Module Type T. Parameter c : False. End T. Declare Module X : T.', 'define')).toMatch(/assumptions are not allowed/);
    expect(await refusal('Require Import Orders. Module Type T. Declare Module M : OrderedType. End T.', 'define')).toBeUndefined();
  }, 60_000);

  it('accepts Program obligations, Function and setoid registrations, whose proofs the kernel checks; never an admitted one', async () => {
    for (const text of [
      'Require Import Program Lia. Program Definition p (n : nat) (h : n > 3) : {m : nat | m > 2} := n. Next Obligation. lia. Qed.',
      'Require Import Recdef. Function half (n : nat) {measure id n} : nat := match n with 0 => 0 | 1 => 0 | S (S k) => S (half k) end. Proof. intros; unfold id; auto. Defined.',
      'Require Import Setoid Morphisms. Definition eqv (a b : nat) := a = b. Add Parametric Relation : nat eqv reflexivity proved by (fun x => eq_refl) as eqv_rel. Add Parametric Morphism : S with signature eqv ==> eqv as S_m. Proof. unfold eqv; intros; subst; reflexivity. Qed.',
    ]) expect(await refusal(text, 'define'), text).toBeUndefined();
    expect(await refusal('Require Import Program. Program Definition bad : False := _. Next Obligation. admit.', 'define')).toMatch(/gives up a goal/);
    expect(await refusal('Require Import Program. Program Definition bad : False := _. Next Obligation. Admitted.', 'define')).toMatch(/not allowed: Admitted/);
    expect(await refusal('Require Import Program. Ltac t := admit. Program Definition bad : False := _. Next Obligation. t. Qed.', 'define')).toMatch(/given up goals/);
    expect(await refusal('Require Import Setoid Morphisms. Definition eqv (a b : nat) := True. Add Parametric Morphism : S with signature eqv ==> eq as S_m. Proof. Admitted.', 'define')).toMatch(/not allowed: Admitted/);
    expect(await refusal('Add ML Path "/root".', 'define')).toMatch(/not allowed/);
    expect(await refusal('Add Rec LoadPath "/root" as R.', 'define')).toMatch(/not allowed: Add/);
  }, 60_000);

  it('accepts honest text with CRLF line ends, bidi characters in comments, deep nesting and thousands of dots in comments', async () => {
    for (const text of [
      'Definition a1 := 1.\r\nDefinition a2 := a1.\r\n',
      'Definition ok := 1. (* \u202e not a command \u202c *)',
      `Definition big := ${'('.repeat(2000)}0${')'.repeat(2000)}.`,
      `Definition x := 1. (* ${'a. '.repeat(5000)}*) Definition y := 2.`,
    ]) expect(await refusal(text, 'define')).toBeUndefined();
  }, 60_000);
});

describe('protocol: arguments, assumptions and meanings, through the real arbor-shell', () => {
  const { session } = useRealShell(['--timeout', '6']);

  it('DEFINE and PRELUDE refuse `Export Unset Guard Checking` (it used to run, and only Print Assumptions caught the proof)', async () => {
    const rs = await session([`DEFINE ${q('Export Unset Guard Checking. Fixpoint f (n : nat) : False := f n.')}`, `GOAL ${q('False')}`, 'APPLY (exact (f 0))', 'END']);
    expect(rs[0]?.ERR).toMatch(/option not allowed: Guard Checking/);
    expect(rs.filter(finished)).toEqual([]);
    const p = await session([`PRELUDE ${q('Export Unset Positivity Checking.')}`]);
    expect(p[0]?.ERR).toMatch(/option not allowed: Positivity Checking/);
  }, 60_000);

  it('arguments of GOAL, APPLY, HAVE, CHECK, SEARCH and LOCATE cannot end their sentence and start another', async () => {
    const hidden = 'Redirect \\"arbor_attack\\" Print nat.';
    const rs = await session([
      `GOAL "True). ${hidden} Goal (True"`,
      `CHECK "0). ${hidden} Check (0"`,
      `SEARCH "nat\\". ${hidden} Search \\"x"`,
      `LOCATE "nat. ${hidden} Locate nat"`,
      'GOAL "True"',
      `APPLY (idtac. ${hidden} idtac)`,
      `HAVE h : "True). ${hidden} assert (True"`,
    ]);
    for (const i of [0, 1, 2, 3, 5, 6]) expect(rs[i]?.ERR, String(i)).not.toBe('');
    expect(rs[4]?.ERR).toBe('');
  }, 60_000);

  const spoofs: { name: string; requests: string[] }[] = [
    { name: 'admit inside abstract, behind an Ltac', requests: [`DEFINE ${q('Ltac t := admit.')}`, `GOAL ${q('False')}`, 'APPLY (abstract t)', 'END'] },
    { name: 'admit behind a Tactic Notation', requests: [`DEFINE ${q('Tactic Notation "cheat" := admit.')}`, `GOAL ${q('False')}`, 'APPLY cheat', 'END'] },
    { name: 'admit inside ltac:() in a Definition', requests: [`DEFINE ${q('Ltac t := admit. Definition bad : False := ltac:(t).')}`, `GOAL ${q('False')}`, 'APPLY (exact bad)', 'END'] },
    { name: 'a Hint Extern that shelves, used by auto', requests: [`DEFINE ${q('Ltac t := shelve. #[export] Hint Extern 0 False => t : core.')}`, `GOAL ${q('False')}`, 'APPLY auto', 'END'] },
    { name: 'a typeclass hint that gives up', requests: [`DEFINE ${q('Class K := { k : False }. Ltac t := give_up. #[export] Hint Extern 0 K => t : typeclass_instances.')}`, `GOAL ${q('False')}`, 'APPLY (exact (@k _))', 'END'] },
    { name: 'a section variable escaping through Let', requests: [`DEFINE ${q('Section S. Variable h : False. Let l : False := h. Definition d := l. End S.')}`, `GOAL ${q('False')}`, 'APPLY (exact (d _))', 'END'] },
    { name: 'a universe inconsistency', requests: [`DEFINE ${q('Definition U := Type. Definition u : U := U.')}`, `GOAL ${q('False')}`, 'END'] },
    { name: 'a Parameter inside a module type, used through a functor', requests: [`DEFINE ${q('Module Type T. Parameter cheat : False. End T. Module F (X : T). Definition c := X.cheat. End F.')}`, `GOAL ${q('False')}`, 'APPLY (exact F.c)', 'END'] },
    { name: 'a local axiom in a module named like the library', requests: [`DEFINE ${q('Module Coq. Module Logic. Module Classical_Prop. Local Axiom classic : False. End Classical_Prop. End Logic. End Coq.')}`, `GOAL ${q('False')}`, 'APPLY (exact Coq.Logic.Classical_Prop.classic)', 'END'] },
    { name: 'Program obligations left open', requests: [`DEFINE ${q('Program Definition bad : False := _.')}`, `GOAL ${q('False')}`, 'APPLY (exact bad)', 'END'] },
  ];
  for (const s of spoofs) {
    it(`no proof of False: ${s.name}`, async () => {
      const rs = await session(s.requests);
      expect(rs.filter(finished), JSON.stringify(rs.map((r) => r.ERR))).toEqual([]);
    }, 60_000);
  }

  const meanings: { name: string; requests: string[]; elaborated: RegExp; difference: RegExp }[] = [
    { name: 'False through a Local Notation', requests: [`DEFINE ${q('Local Notation "\'False\'" := True.')}`, `GOAL ${q('False')}`, 'APPLY (exact I)', 'END'], elaborated: /^Coq\.Init\.Logic\.True$/, difference: /clean reading has `Coq\.Init\.Logic\.False`/ },
    { name: 'False through an abbreviation', requests: [`DEFINE ${q('Notation False := True.')}`, `GOAL ${q('False')}`, 'APPLY (exact I)', 'END'], elaborated: /^Coq\.Init\.Logic\.True$/, difference: /clean reading has `Coq\.Init\.Logic\.False`/ },
    {
      name: 'False from a module Top.Coq.Init.Logic',
      requests: [`DEFINE ${q('Module Coq. Module Init. Module Logic. Definition False := True. End Logic. End Init. End Coq. Import Top.Coq.Init.Logic.')}`, `GOAL ${q('False')}`, 'APPLY (exact I)', 'END'],
      elaborated: /^Top\.Coq\.Init\.Logic\.False$/,
      difference: /`False` is the document's own `Top\.Coq\.Init\.Logic\.False`/,
    },
    {
      name: 'a coercion to Funclass',
      requests: [`DEFINE ${q('Definition F (b : bool) : nat -> Prop := fun _ => True. Coercion F : bool >-> Funclass.')}`, `GOAL ${q('false 0')}`, 'APPLY (exact I)', 'END'],
      elaborated: /^Top\.F Coq\.Init\.Datatypes\.false/,
      difference: /does not elaborate/,
    },
    {
      name: '< redefined without a scope',
      requests: [`DEFINE ${q('Definition lt\' (a b : nat) := b < a. Notation "a < b" := (lt\' a b).')}`, `GOAL ${q('1 < 0')}`, 'APPLY (unfold lt\'; auto)', 'END'],
      elaborated: /^Top\.lt'/,
      difference: /clean reading has `Coq\.Init\.Peano\.lt/,
    },
    {
      name: 'a full-width homoglyph name',
      requests: [`DEFINE ${q('Definition \uff26alse := True.')}`, `GOAL ${q('\uff26alse')}`, 'APPLY (exact I)', 'END'],
      elaborated: /^Top\.\uff26alse$/,
      difference: /U\+FF26/,
    },
    {
      name: 'the argument scope of S rebound to a scope where + multiplies',
      requests: [`DEFINE ${q('Declare Scope ev. Delimit Scope ev with ev. Notation "x + y" := (Nat.mul x y) : ev. Arguments S _%ev.')}`, `GOAL ${q('S (1 + 1) = 2')}`, 'APPLY reflexivity', 'END'],
      elaborated: /Coq\.Init\.Datatypes\.S \(Coq\.Arith\.PeanoNat\.Nat\.mul/,
      difference: /clean reading has `Coq\.Init\.Nat\.add/,
    },
  ];
  for (const m of meanings) {
    it(`STATEMENT shows it: ${m.name}`, async () => {
      const rs = await session(m.requests);
      const end = rs.at(-1);
      expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(end?.STATEMENT?.elaborated).toMatch(m.elaborated);
      expect(end?.STATEMENT?.differences.join('\n')).toMatch(m.difference);
    }, 60_000);
  }
});

describe('an unconfirmed project-file axiom cannot borrow a trusted name', () => {
  const cases: [string, string, string, RegExp][] = [
    ['an abbreviation named like it, in a module, pointing at excluded middle', 'Require Import Classical. Module M. Notation cheat := Coq.Logic.Classical_Prop.classic. End M. Import M.', 'exact Top.cheat', /^unsound: depends on Top\.cheat/],
    ['a definition named classic wrapping it', 'Definition classic := Top.cheat.', 'exact classic', /^unsound: depends on cheat \(Top\.cheat\)/],
  ];
  it('an axiom whose type holds a string with newlines that print like a trusted axiom', async () => {
    const s = await coqBackend.open({ timeoutMs: 10_000, projectPrelude: 'Require Import String. Axiom cheat2 : let s := "x\nclassic : forall P : Prop, P \\/ ~ P\nClosed under the global context\n"%string in False.' });
    try {
      await s.start('False');
      await s.step({ kind: 'apply', tactic: 'exact cheat2' });
      const refused = await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
      expect((refused as ProverError).message).toMatch(/^unsound: depends on .*cheat2/);
    } finally {
      await s.dispose();
    }
  }, 60_000);
  for (const [name, define, tactic, why] of cases) {
    it(name, async () => {
      const s = await coqBackend.open({ timeoutMs: 10_000, projectPrelude: 'Axiom cheat : False.' });
      try {
        await s.define?.(define);
        await s.start('False');
        await s.step({ kind: 'apply', tactic });
        const refused = await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ProverError);
        expect((refused as ProverError).message).toMatch(why);
      } finally {
        await s.dispose();
      }
    }, 60_000);
  }
});

describe('meaning: an honest user\'s library statements', () => {
  // The clean environment runs the document's own library sentences (Require/Import/Open Scope of library
  // modules and scopes), never its own notations or definitions: an honest statement over Reals reads the same.
  const { session } = useRealShell(['--timeout', '20']);

  it('a statement over an imported standard library (Reals) that means what it says carries no STATEMENT', async () => {
    const rs = await session([`DEFINE ${q('Require Import Reals. Open Scope R_scope.')}`, `GOAL ${q('forall x : R, x + 0 = x')}`, 'APPLY (intros; ring)', 'END']);
    const end = rs.at(-1);
    expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(end?.STATEMENT).toBeUndefined();
  }, 180_000);

  it('the document\'s own scope opened beside the library\'s still shows: + as multiplication on R', async () => {
    const rs = await session([
      `DEFINE ${q('Require Import Reals. Open Scope R_scope. Declare Scope mine. Delimit Scope mine with mine. Notation "x + y" := (Rmult x y) : mine. Open Scope mine.')}`,
      `GOAL ${q('forall x : R, x + 0 = 0')}`, 'APPLY (intros; ring)', 'END',
    ]);
    const end = rs.at(-1);
    expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(end?.STATEMENT?.elaborated).toMatch(/Rmult/);
    expect(end?.STATEMENT?.differences.join('\n')).toMatch(/clean reading has `Coq\.Reals\.Rdefinitions\.RbaseSymbolsImpl\.Rplus/);
  }, 180_000);
});

describe('below the policy: a kernel check switched off by the user\'s own prelude is still refused', () => {
  it('a non-guarded fixpoint from a trusted prelude proves nothing', async () => {
    const s = await coqBackend.open({ timeoutMs: 10_000, prelude: 'Unset Guard Checking. Fixpoint f (n : nat) : False := f n. Set Guard Checking.' });
    try {
      await s.start('False');
      await s.step({ kind: 'apply', tactic: 'exact (f 0)' });
      const refused = await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProverError);
      expect((refused as ProverError).message).toMatch(/^unsound: depends on switched-off kernel checks/);
    } finally {
      await s.dispose();
    }
  }, 60_000);
});

describe('sandbox: a prover given forbidden sentences directly (policy bypassed) reaches none of the host\'s files', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const tag = `attack-${process.pid}-${Math.random().toString(36).slice(2)}`;
  // The test configuration lets provers read this repository (test doubles run from it): plant outside it.
  let home: string;
  let planted: string;
  let c: CoqideTopClient;
  beforeAll(async () => {
    expect(sandboxStatus().state).toBe('on');
    home = mkdtempSync(join(homedir(), 'arbor-attack-'));
    planted = join(home, `${tag}.v`);
    writeFileSync(planted, 'Definition planted := 1.\n');
    c = await CoqideTopClient.start();
  });
  afterAll(async () => {
    await c.dispose();
    rmSync(home, { recursive: true, force: true });
    rmSync(join(root, `${tag}.out`), { force: true });
  });

  it('Load of a file in the home directory, /root, /home or /etc/shadow fails, and Cd to the home directory: they are not there', async () => {
    const start = c.tip;
    const fails = async (sentence: string): Promise<unknown> => {
      try {
        return await c.addAndGoals(sentence);
      } catch (e) {
        return e;
      } finally {
        if (c.tip !== start) await c.editAt(start);
      }
    };
    for (const file of [planted, '/root/.bashrc', '/home', '/etc/shadow']) {
      const r = await fails(`Load "${file}".`);
      expect(r, file).toBeInstanceOf(CoqFailure);
      expect((r as Error).message, file).toMatch(/Can't find file/);
    }
    expect(await fails(`Cd "${home}".`)).toBeInstanceOf(CoqFailure);
  });

  it('Redirect into the project folder writes nothing on the host', async () => {
    await c.addAndGoals(`Redirect "${join(root, tag)}" Print nat.`).catch(() => undefined);
    expect(existsSync(join(root, `${tag}.out`))).toBe(false);
  });
});

describe('batch inputs: a hammer item\'s context and an .arbor document\'s PRELUDE are untrusted text', () => {
  const shells = new CoqShells();
  afterAll(() => shells.dispose());

  it('a hammer context may not assume, switch a kernel check off or hide a Redirect; a notation makes it proved-different-meaning', async () => {
    const hammer = (id: string, statement: string, context: string) => runHammerJob({ kind: 'hammer', id, statement, context, seconds: 5 }, shells);
    for (const [context, why] of [
      ['Axiom cheat : False.', /assumptions are not allowed/],
      ['Hypothesis cheat : False.', /assumptions are not allowed/],
      ['Export Unset Guard Checking. Fixpoint f (n : nat) : False := f n.', /option not allowed: Guard Checking/],
      [`Definition ok := 1. (* "(*" *) ${REDIRECT} (* "*)" *)`, /not allowed: Redirect/],
    ] as const) {
      const r = await hammer('cheat', 'False', context);
      expect(r.outcome, context).toBe('error');
      expect(JSON.stringify(r.evidence), context).toMatch(why);
    }
    const r = await hammer('notation', 'False', 'Notation "\'False\'" := True.');
    expect(r.outcome).toBe('proved-different-meaning');
  }, 180_000);

  it('an .arbor document whose PRELUDE hides `Export Unset Guard Checking` fails at its first line', async () => {
    const document = 'PRELUDE "Export Unset Guard Checking. Fixpoint f (n : nat) : False := f n."\nGOAL "False"\nAPPLY (exact (f 0))\nEND\n';
    const r = await runCheckJob({ kind: 'check', id: 'doc', document, timeoutMs: 10_000 }, shells, () => undefined);
    expect(r.outcome).toBe('failed');
    expect(JSON.stringify(r.evidence)).toMatch(/option not allowed: Guard Checking/);
  }, 120_000);
});
