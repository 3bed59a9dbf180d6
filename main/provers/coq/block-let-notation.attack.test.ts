import { describe, expect, it } from 'vitest';
import { useRealShell } from './testing/real-shell.ts';
import { blockEffect } from './document-blocks.ts';

/**
 * Attack (atk-text): the block reader (document-blocks.ts `assignmentsAndConstraints`) gives every `let` token one
 * `:=` of its own. A document's notation can make `let` a postfix symbol with no `:=` at all
 * (`Notation "x 'let'" := (S x)`): then the `:=` that defines a module type at once is taken as the `let`'s.
 * `Module Type N <: T with Definition x := 0 let := T with Definition x := 1.` defines N at once in Coq (nothing
 * open), but Arbor reads it as opening module type N; the policy then allows `Axiom bad : False.` as a module type's
 * field, and Coq declares it at top level (`Top.bad`). The assumption judge still refuses a proof that uses it,
 * but a policy-refused command ran.
 */
const NOTATION = `Notation "x 'let'" := (S x) (at level 1, left associativity).`;
const TRICK = 'Module Type N <: T with Definition x := 0 let := T with Definition x := 1.';
// Left (session 14): a document's notation can make `let` or `with Definition` a term's terminals in Coq's printed
// sentence, and the block reader then takes a module type defined at once for an open one; the policy lets an `Axiom`
// through as its field. Coq declares it at top level, and END refuses any proof using it by kernel name (checked
// here). What would close it: asking Coq, not the printed text, whether a block is open.
describe('a `let` without `:=` hides a module type\'s definition (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it.fails('DEFINE refuses an Axiom after a module type defined at once', { timeout: 120_000 }, async () => {
    const text = `${NOTATION} Module Type T. Parameter x : nat. End T. ${TRICK} Axiom bad : False.`;
    const r = await real.session([`DEFINE "${text.replace(/"/g, '\\"')}"`, 'GOAL f "False"', 'APPLY (exact bad)']);
    expect(r[0]?.ERR).toMatch(/Axiom/);
    // Coq must not know `bad`: the refused sentence never ran.
    expect(r[2]?.ERR).not.toBe('');
  });
  it.fails('a notation with terminals `with` `Definition` fakes a constraint: DEFINE still refuses the Axiom', { timeout: 120_000 }, async () => {
    // `Module Type N := T with Definition x := 0 with Definition.` (the last two words the notation's, after `0`):
    // two `:=`, and two `with Definition` read as constraints, so N looks open; Coq defined it at once.
    const text = `Notation "x 'with' 'Definition'" := (S x) (at level 1, left associativity). Module Type T. Parameter x : nat. End T. Module Type N := T with Definition x := 0 with Definition. Axiom bad : False.`;
    const r = await real.session([`DEFINE "${text.replace(/"/g, '\\"')}"`, 'GOAL f "False"', 'APPLY (exact bad)']);
    expect(r[0]?.ERR).toMatch(/Axiom/);
    expect(r[2]?.ERR).not.toBe('');
  });
  it.fails('blockEffect reads the sentence as defined at once', () => {
    expect(blockEffect('Module Type N := T with Definition x := 0 with Definition.')).toBeUndefined();
    expect(blockEffect(TRICK)).toBeUndefined();
  });
});
