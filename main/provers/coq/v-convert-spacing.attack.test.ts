import { describe, expect, it } from 'vitest';
import { convertTheorem, defineLine, applyLine } from '../../../shared/protocol/v-file-convert.ts';
import { vToDocument } from './v-to-document.ts';
import { typeFromCheck } from './statement-reading.ts';
import { vFileDerivations } from './v-file-derivations.ts';
import { useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-locate) on the `.v` conversion's "Coq's blanks only" reading: a Coq string is data, its inner blanks
 * are part of the term (`"a  b"` has length 4, `"a b"` 3), and a no-break space ending a name is part of the name
 * (`P ` is not `P`). The converted document must state and run what the file states and runs.
 */
const NB = '\u00a0';
const STRING_FILE = [
  'Require Import String.',
  'Open Scope string_scope.',
  'Definition s := "a  b".',
  'Theorem t1 : exists x, x = "a  b".',
  'Proof. exists "a  b". reflexivity. Qed.',
].join('\n');
const NBSP_FILE = ['Definition P := 1 = 1.', `Definition P${NB} := 2 = 2.`, `Theorem t2 : P${NB}.`, 'Proof. reflexivity. Qed.'].join('\n');

describe('.v conversion keeps what Coq reads as data or names (attack)', () => {
  it('vToDocument: a string keeps its inner blanks in a DEFINE, a statement and a tactic', () => {
    const items = vToDocument(STRING_FILE);
    expect(items[2]).toMatchObject({ kind: 'define', text: 'Definition s := "a  b".' });
    expect(items[3]).toMatchObject({ kind: 'proof', statement: 'exists x, x = "a  b"', tactics: ['exists "a  b"', 'reflexivity'] });
  });

  it('vToDocument: a tab or a line break inside a string is kept', () => {
    const items = vToDocument('Definition s := "a\tb".\nDefinition u := "c\nd".');
    expect(items.map((i) => (i.kind === 'define' ? i.text : ''))).toEqual(['Definition s := "a\tb".', 'Definition u := "c\nd".']);
  });

  it('vToDocument: a no-break space ending the statement\'s last name stays (`P ` is another constant than `P`)', () => {
    const proof = vToDocument(NBSP_FILE).find((i) => i.kind === 'proof');
    expect(proof).toMatchObject({ name: 't2', statement: `P${NB}` });
  });

  it('vToDocument: a binder whose one name holds a no-break space (`(x y : nat)`) is introduced by that name, not skipped', () => {
    const items = vToDocument(`Theorem u (x${NB}y : nat) : x${NB}y = x${NB}y.\nProof. reflexivity. Qed.`);
    expect(items).toEqual([{ kind: 'proof', name: 'u', statement: `forall (x${NB}y : nat), x${NB}y = x${NB}y`, tactics: [`intros x${NB}y`, 'reflexivity'], line: 1 }]);
  });

  it('▶ Convert (pure): the GOAL, APPLY and DEFINE lines keep a string\'s inner blanks', () => {
    const tactic = { tactic: 'exists "a  b"', line: 2, acted: ['1'], made: ['2'], left: 1, structural: false };
    const close = { tactic: 'reflexivity', line: 2, acted: ['2'], made: [], left: 0, structural: false };
    const c = convertTheorem({ theorem: { name: 't1', ending: 'Qed', tactics: [tactic, close] }, statement: 'exists x : string, x = "a  b"', binders: [] });
    expect(c).toEqual({ ok: true, lines: ['GOAL t1 ‹exists x : string, x = "a  b"›', 'APPLY exists "a  b"', 'APPLY reflexivity', 'END'] });
    expect(applyLine('idtac "x  y"')).toBe('APPLY idtac "x  y"');
    expect(defineLine(['Definition s := "a  b".'])).toBe('DEFINE ‹Definition s := "a  b".›');
  });

  it('typeFromCheck keeps a no-break space that ends (or starts) the printed type', () => {
    expect(typeFromCheck(`t2\n     : P${NB}`)).toBe(`P${NB}`);
    expect(typeFromCheck(`t3\n     : ${NB}Q`)).toBe(`${NB}Q`);
  });

  it('▶ Convert (real coqidetop): the converted items state the file\'s theorems, strings and names whole', { timeout: 180_000 }, async () => {
    const strings = await vFileDerivations(STRING_FILE, { timeoutMs: 60_000 });
    const t1 = strings.theorems.find((t) => t.name === 't1');
    expect(t1?.converted).toEqual({ ok: true, lines: [
      'DEFINE ‹Require Import String. Open Scope string_scope. Definition s := "a  b".›',
      'GOAL t1 ‹exists x : string, x = "a  b"›', 'APPLY exists "a  b"', 'APPLY reflexivity', 'END',
    ] });
    // The file proves `P ` (2 = 2); the conversion stated `P` (1 = 1), which the same `reflexivity` proves too.
    const names = await vFileDerivations(NBSP_FILE, { timeoutMs: 60_000 });
    const t2 = names.theorems.find((t) => t.name === 't2');
    expect(t2?.converted.ok).toBe(true);
    expect(t2?.converted.ok && t2.converted.lines).toContain(`GOAL t2 "P${NB}"`);
  });
});

describe('goals shown with a string\'s inner blanks (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('GOAL answers the goal Coq holds: `length "a  b" = 4`, not `length "a b" = 4` (false as shown)', { timeout: 120_000 }, async () => {
    const [, def, goal] = await real.session(['PRELUDE bare', 'DEFINE "Require Import String. Open Scope string_scope."', 'GOAL t ‹String.length "a  b" = 4›']);
    expect(def?.ERR).toBe('');
    expect((goal?.RESPONSE as { goal: string }).goal).toBe('length "a  b" = 4');
  });
});
