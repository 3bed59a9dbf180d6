import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredNames } from './coq-declarations.ts';
import { splitHyp } from './coq-hyps.ts';
import { CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText } from './coq-text-runner.ts';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';
import { SentencePolicy } from './vernacular-policy.ts';

/**
 * A no-break space (U+00A0) is part of a name to Coq's lexer (Unicode.classify: an identifier separator, like `_`):
 * `and P` is one name, `Require Import` one identifier, not the command. JavaScript's `\s` takes it as a blank:
 * Annotate's print, the goals and the declared names must not (issue: a DEFINE of `Definition and P` answered
 * Coq's `and`). What Coq does with each form was measured with coqc 8.16.1 and is asserted here through
 * the real coqidetop.
 */
const NBSP = '\u00a0';
const show = (r: unknown): string => JSON.stringify(r).replace(/\u00a0/g, '<NBSP>').slice(0, 600);

describe('a name with a no-break space, through arbor-shell (real coqidetop)', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('DEFINE of `Definition and P` declares exactly `and P`; a GOAL stated with it means it, one with `and` still means Coq\'s `and`', { timeout: 240_000 }, async () => {
    const [define, located, goal, , end, plainGoal, , plainEnd] = await session([
      `DEFINE ${q(`Definition and${NBSP}P (Q : Prop) := True.`)}`,
      `LOCATE and${NBSP}P`,
      `GOAL t ${q(`and${NBSP}P False`)}`,
      'APPLY (exact I)',
      'END',
      `GOAL u ${q('and True True')}`,
      'APPLY (split; exact I)',
      'END',
    ]);
    expect(define?.ERR, show(define)).toBe('');
    expect((define?.RESPONSE as { declared: { name: string; type: string; module?: string }[] }).declared, show(define))
      .toEqual([{ name: `and${NBSP}P`, type: 'Prop -> Prop', module: 'document', kind: 'Constant' }]);
    expect((goal?.RESPONSE as { goal: string }).goal, show(goal)).toBe(`and${NBSP}P False`);
    expect(finished(end), show(end)).toBe(true);
    // The statement elaborates to the document's own constant (and differs from a clean reading, where it is unknown).
    expect((end?.STATEMENT as { elaborated?: string } | undefined)?.elaborated, show(end)).toBe(`Top.and${NBSP}P Coq.Init.Logic.False`);
    expect((plainGoal?.RESPONSE as { goal: string }).goal, show(plainGoal)).toBe('True /\\ True');
    expect(finished(plainEnd), show(plainEnd)).toBe(true);
    expect(plainEnd?.STATEMENT, show(plainEnd)).toBeUndefined();
    // The shell's own LOCATE reads the name whole too (it answered "unexpected text after LOCATE: P").
    expect(located?.ERR, show(located)).toBe('');
    expect((located?.RESPONSE as { results: { kind: string; name: string }[] }).results, show(located)).toEqual([{ kind: 'Constant', name: `and${NBSP}P` }]);
  });

  it('an inductive type and a record named with no-break spaces: their constructors, projections and types keep them', { timeout: 240_000 }, async () => {
    const [define] = await session([`DEFINE ${q(`Inductive t${NBSP}x := C${NBSP}y : nat -> t${NBSP}x | D : t${NBSP}x. Record r${NBSP}s := mk${NBSP}r { f${NBSP}g : nat }.`)}`]);
    expect(define?.ERR, show(define)).toBe('');
    expect((define?.RESPONSE as { declared: { name: string; type: string; kind?: string }[] }).declared.map((d) => [d.name, d.type, d.kind]), show(define)).toEqual([
      [`t${NBSP}x`, 'Set', 'Inductive'],
      [`C${NBSP}y`, `nat -> t${NBSP}x`, 'Constructor'],
      ['D', `t${NBSP}x`, 'Constructor'],
      [`r${NBSP}s`, 'Set', 'Inductive'],
      [`mk${NBSP}r`, `nat -> r${NBSP}s`, 'Constructor'],
      [`f${NBSP}g`, `r${NBSP}s -> nat`, 'Constant'],
    ]);
  });

  it('hypotheses named with a no-break space keep their names', { timeout: 240_000 }, async () => {
    const [, intros] = await session([`GOAL h ${q(`forall (H${NBSP}x : True) (n${NBSP}m : nat), n${NBSP}m = n${NBSP}m`)}`, 'APPLY (intros)']);
    const ctxt = (intros?.RESPONSE as { ctxt: { vars: { name: string }[]; hyps: { name: string; expr: string }[] }; goal: string });
    expect(ctxt.ctxt.hyps, show(intros)).toEqual([{ name: `H${NBSP}x`, expr: 'True' }]);
    expect(ctxt.ctxt.vars.map((v) => v.name), show(intros)).toEqual([`n${NBSP}m`]);
    expect(ctxt.goal, show(intros)).toBe(`n${NBSP}m = n${NBSP}m`);
  });
});

describe('the policy reads a no-break space as Coq does (real coqidetop)', () => {
  let client: CoqideTopClient;
  let start: number;
  beforeAll(async () => {
    client = await CoqideTopClient.start();
    start = client.tip;
  });
  afterAll(() => client.dispose());

  /** Runs `text` as a DEFINE's untrusted text: undefined, or the message it was refused or failed with; the document is back at the start. */
  const run = async (text: string): Promise<string | undefined> => {
    try {
      await runCoqText(client, text, { purpose: 'define', timeoutMs: 20_000 });
      return undefined;
    } catch (e) {
      return (e as Error).message;
    } finally {
      if (client.tip !== start) await client.editAt(start);
    }
  };

  // Commands the policy refuses, each with a no-break space where a blank would make it the command.
  const forms = [
    `Require${NBSP}Import Arith.`,
    `Load${NBSP}"x".`,
    `Declare${NBSP}ML${NBSP}Module "foo".`,
    `Axiom${NBSP}x : False.`,
    `Redirect${NBSP}"f" Check nat.`,
    `Drop${NBSP}.`,
    `Set${NBSP}Printing All.`,
    `Time${NBSP}Redirect "f" Check nat.`,
  ];

  it('outside a proof: Coq cannot parse any of them (one identifier where a command is expected); the policy never reads them as the command', { timeout: 240_000 }, async () => {
    for (const f of forms) expect(await run(f), f).toMatch(/^parse error: Syntax error: illegal begin of vernac/);
    // Were one of them printed as it is, the policy would judge the identifier, never the command it spells.
    for (const f of forms) {
      const verdict = new SentencePolicy('define').judge(f, false);
      expect(verdict, f).toMatch(/^parse error: declaration sentence not allowed: /);
      expect(verdict, f).toContain(f.split(' ')[0]?.replace(/\.$/, ''));
    }
  });

  it('inside a proof: Coq reads each as a tactic call to the name it spells, which does not exist; nothing runs', { timeout: 240_000 }, async () => {
    const inProof = (f: string): string => `Lemma l : True. Proof. ${f} exact I. Qed.`;
    const expected: Record<string, RegExp> = {
      [`Require${NBSP}Import Arith.`]: new RegExp(`^The reference Require${NBSP}Import was not found`),
      [`Load${NBSP}"x".`]: /^No interpretation for string "x"/,
      [`Declare${NBSP}ML${NBSP}Module "foo".`]: /^No interpretation for string "foo"/,
      [`Axiom${NBSP}x : False.`]: /^parse error: Syntax error: \[ltac_use_default\] expected after \[tactic\]/,
      [`Redirect${NBSP}"f" Check nat.`]: /^No interpretation for string "f"/,
      [`Drop${NBSP}.`]: new RegExp(`^The reference Drop${NBSP} was not found`),
      [`Set${NBSP}Printing All.`]: new RegExp(`^The reference Set${NBSP}Printing was not found`),
      [`Time${NBSP}Redirect "f" Check nat.`]: /^No interpretation for string "f"/,
      // The giving-up tactics spelled with a no-break space are other names to Coq.
      [`admit${NBSP}.`]: new RegExp(`^The reference admit${NBSP} was not found`),
      [`give_up${NBSP}x.`]: new RegExp(`^The reference give_up${NBSP}x was not found`),
      [`exact${NBSP}I.`]: new RegExp(`^The reference exact${NBSP}I was not found`),
    };
    for (const [f, message] of Object.entries(expected)) expect(await run(inProof(f)), f).toMatch(message);
    // The plain forms are still what the policy refuses.
    expect(await run(inProof('admit.'))).toMatch(/not allowed: admit \(it gives up a goal\)/);
    expect(await run(inProof('Require Import Arith.'))).toMatch(/not allowed: Require \(inside a proof\)/);
    expect(await run('Axiom x : False.')).toMatch(/not allowed: Axiom \(assumptions are not allowed here\)/);
  });

  it('names with a no-break space are read whole: declared names, module paths, hypotheses', () => {
    expect(declaredNames(`Definition and${NBSP}P (Q : Prop) := True.`)).toEqual([`and${NBSP}P`]);
    expect(declaredNames(`Axiom${NBSP}x : False.`)).toEqual([]);
    expect(declaredNames(`Inductive t${NBSP}1 := A with u${NBSP}2 := B.`)).toEqual([`t${NBSP}1`, `u${NBSP}2`]);
    expect(declaredNames(`Fixpoint f (x${NBSP}with g : nat) : nat := 0.`)).toEqual(['f']);
    expect(splitHyp(`H${NBSP}x, y : True`)).toEqual([{ name: `H${NBSP}x`, type: 'True' }, { name: 'y', type: 'True' }]);
    expect(new SentencePolicy('define').judge(`Require Import Foo${NBSP}Bar.`, false)).toBeUndefined();
  });
});

describe('the statement judge\'s texts keep a no-break space', () => {
  it('a library sentence with a no-break space is never run in the clean reading as another one, and a printed reading is not another one', async () => {
    const { librarySentences } = await import('./statement-reading.ts');
    const { qualified } = await import('./statement-meaning.ts');
    // Never `Require Import Foo Bar.` (two libraries the document did not load): a name that is not ASCII is left out, as ever.
    expect(librarySentences([`Require  Import\tFoo${NBSP}Bar.`, 'Require  Import\tFoo.Bar.'])).toEqual(['Require Import Foo.Bar.']);
    expect(qualified({ printed: `f${NBSP}g\n   x`, term: undefined, full: new Map() })).toBe(`f${NBSP}g x`);
  });
});

describe('query answers keep a no-break space in names (as Coq prints them)', () => {
  it('Locate, Print, About and Search read a name with a no-break space whole, at its end too', async () => {
    const { parseAbout, parseLocate, parsePrint, parseSearchResult } = await import('./coq-queries.ts');
    expect(parseLocate(`Constant Top.and${NBSP}P\nConstant Top.y${NBSP}\n`, 'x').results).toEqual([{ kind: 'Constant', name: `Top.and${NBSP}P` }, { kind: 'Constant', name: `Top.y${NBSP}` }]);
    expect(parsePrint(`and${NBSP}P = fun _ : Prop => True\n     : Prop -> Prop\n\nArguments and${NBSP}P Q%type_scope`, `and${NBSP}P`)).toMatchObject({ body: 'fun _ : Prop => True', type: 'Prop -> Prop' });
    expect(parseSearchResult(`and${NBSP}P: Prop ->\n  Prop`)).toEqual({ name: `and${NBSP}P`, type: 'Prop -> Prop' });
    expect(parseAbout(`y${NBSP} : nat\n\ny${NBSP} is transparent\nExpands to: Constant Top.y${NBSP}`, `y${NBSP}`)).toMatchObject({ type: 'nat', kind: 'Constant', fullName: `Top.y${NBSP}`, module: 'document' });
  });
});
