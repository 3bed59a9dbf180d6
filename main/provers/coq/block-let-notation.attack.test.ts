import { describe, expect, it } from 'vitest';
import { useRealShell } from './testing/real-shell.ts';
import { blockEffect } from './document-blocks.ts';
import { vFileDerivations } from './v-file-derivations.ts';

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
// Fixed (session 15): the policy asks Coq which blocks are open before an assumption (plugin `Arbor_blocks`,
// coq-blocks.ts), and after a DEFINE that may open or close a block, what is open is Coq's answer.
describe('a `let` without `:=` hides a module type\'s definition (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('DEFINE refuses an Axiom after a module type defined at once', { timeout: 120_000 }, async () => {
    const text = `${NOTATION} Module Type T. Parameter x : nat. End T. ${TRICK} Axiom bad : False.`;
    const r = await real.session([`DEFINE "${text.replace(/"/g, '\\"')}"`, 'GOAL f "False"', 'APPLY (exact bad)']);
    expect(r[0]?.ERR).toMatch(/Axiom/);
    // Coq must not know `bad`: the refused sentence never ran.
    expect(r[2]?.ERR).not.toBe('');
  });
  it('a notation with terminals `with` `Definition` fakes a constraint: DEFINE still refuses the Axiom', { timeout: 120_000 }, async () => {
    // `Module Type N := T with Definition x := 0 with Definition.` (the last two words the notation's, after `0`):
    // two `:=`, and two `with Definition` read as constraints, so N looks open; Coq defined it at once.
    const text = `Notation "x 'with' 'Definition'" := (S x) (at level 1, left associativity). Module Type T. Parameter x : nat. End T. Module Type N := T with Definition x := 0 with Definition. Axiom bad : False.`;
    const r = await real.session([`DEFINE "${text.replace(/"/g, '\\"')}"`, 'GOAL f "False"', 'APPLY (exact bad)']);
    expect(r[0]?.ERR).toMatch(/Axiom/);
    expect(r[2]?.ERR).not.toBe('');
  });
  it('a DEFINE whose reading of the blocks disagrees with Coq keeps Coq\'s: nothing open, no `End N.` in the SCRIPT', { timeout: 120_000 }, async () => {
    const text = `${NOTATION} Module Type T. Parameter x : nat. End T. ${TRICK}`;
    const r = await real.session([`DEFINE "${text.replace(/"/g, '\\"')}"`, 'DEFINE "Definition y := 1."', 'GOAL g "y = 1"', 'APPLY (reflexivity)', 'END']);
    expect(r[0]?.ERR).toBe('');
    expect(r[4]?.ERR).toBe('');
    expect(r[4]?.SCRIPT).not.toMatch(/End N\./);
    expect(blockEffect(TRICK)).toEqual({ open: { kind: 'module type', name: 'N' } }); // the text reading alone is fooled
  });
  it('opening a .v file: the Axiom after the trick is skipped, and no theorem of `False` is shown finished on it', { timeout: 120_000 }, async () => {
    const file = `${NOTATION}\nModule Type T. Parameter x : nat. End T.\n${TRICK}\nAxiom bad : False.\nTheorem t : False.\nProof. exact bad. Qed.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    expect(r.skipped?.map((k) => k.line)).toEqual([4]);
    expect(r.theorems.find((t) => t.name === 't')?.ending).not.toBe('Qed');
  });
});
