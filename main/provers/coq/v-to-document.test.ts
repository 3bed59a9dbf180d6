import { describe, expect, it } from 'vitest';
import { binderNames, itemLines, vToDocument } from './v-to-document.ts';
import { nameOccurrence } from '../../../shared/protocol/name-pattern.ts';
import { environmentPrelude, environmentProblem } from './environments.ts';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import { formatCommand } from '../../../shared/protocol/format-command.ts';

describe('a .v file as document items', () => {
  it('declarations, theorems with their tactics (bullets dropped, binders introduced), skipped queries', () => {
    const items = vToDocument([
      'Section S. Variable n : nat.',
      "Lemma plus_n_O' (m : nat) {A} : m + 0 = m.",
      'Proof.', '  induction m.', '  - reflexivity.', '  - { simpl. rewrite IHm. reflexivity. }', 'Qed.',
      'Check plus_n_O\'.',
      'Goal True. Proof. Abort.',
      'Lemma t : forall p : nat * nat, p = (fst p, snd p). Proof surjective_pairing _.',
      'Definition d : nat. exact 1. Defined.',
      'End S.',
    ].join('\n'));
    expect(items.map((i) => i.kind)).toEqual(['define', 'define', 'proof', 'skipped', 'skipped', 'proof', 'define', 'define']);
    expect(itemLines(items[2] as (typeof items)[number])).toEqual([
      "GOAL plus_n_O' \"forall (m : nat) {A}, m + 0 = m\"", 'APPLY (intros m A)', 'APPLY (induction m)', 'APPLY (reflexivity)',
      'APPLY (simpl)', 'APPLY (rewrite IHm)', 'APPLY (reflexivity)', 'END',
    ]);
    expect(itemLines(items[5] as (typeof items)[number])).toContain('APPLY (exact (surjective_pairing _))');
    expect(items[6]).toMatchObject({ kind: 'define', text: 'Definition d : nat. exact 1. Defined.' });
  });
  it('names binders, and refuses pattern binders', () => {
    expect(binderNames("(x y : nat) {A : Type} [B] z'")).toEqual(['x', 'y', 'A', 'B', "z'"]);
    expect(binderNames('`{C A}')).toBeUndefined();
    expect(binderNames("'(a, b)")).toBeUndefined();
  });
  it('a record in a statement is not a body', () => {
    const [item] = vToDocument('Lemma e : forall p : t, p = {| x := p.(x) |}. Proof. reflexivity. Qed.');
    expect(item).toMatchObject({ kind: 'proof', name: 'e' });
  });
});

describe("a .v file read with Coq's blanks", () => {
  it('a name holding a no-break space stays one name in declarations, statements and tactics', () => {
    const nbsp = '\u00a0';
    const items = vToDocument([`Definition and${nbsp}P (Q : Prop) :=\n  Q.`, `Lemma l : and${nbsp}P True.`, 'Proof.', `  exact\tI.`, 'Qed.'].join('\n'));
    expect(items[0]).toMatchObject({ kind: 'define', text: `Definition and${nbsp}P (Q : Prop) := Q.` });
    expect(itemLines(items[1] as (typeof items)[number])).toEqual([`GOAL l "and${nbsp}P True"`, 'APPLY (exact I)', 'END']);
  });
});

describe('names are data in regular expressions', () => {
  it('primes, dots and other RegExp syntax', () => {
    expect(nameOccurrence("app'").test("app' l nil'")).toBe(true);
    expect(nameOccurrence('app').test("app' l")).toBe(false);
    expect(nameOccurrence('a.b+').test('x a.b+ y')).toBe(true);
  });
});

describe('environments', () => {
  it('PRELUDE [environment] ["text"] round-trips; unknown names are refused by the Coq backend', () => {
    for (const line of ['PRELUDE bare', 'PRELUDE arith,lists "Definition x := 1."', 'PRELUDE "Definition y := 2."']) {
      const parsed = parseRequest(line);
      expect('command' in parsed, line).toBe(true);
      if ('command' in parsed) expect(formatCommand(parsed.command)).toBe(line);
    }
    const bare = parseRequest('PRELUDE bare');
    expect('command' in bare ? bare.command : bare).toEqual({ name: 'PRELUDE', text: '', environment: 'bare' });
    expect(environmentProblem('bare')).toBeUndefined();
    expect(environmentProblem('arith,lists')).toBeUndefined();
    expect(environmentProblem('arith,evil')).toMatch(/unknown environment: evil/);
  });
  it('the bare prelude imports no library names; the default stays as it was', () => {
    expect(environmentPrelude('bare')).not.toMatch(/Import (Arith|List|ListNotations|Bool|ZArith)/);
    expect(environmentPrelude('lists')).toMatch(/Import ListNotations/);
    expect(environmentPrelude()).toMatch(/From Coq Require Import Arith Lia List Bool ZArith\./);
  });
});
