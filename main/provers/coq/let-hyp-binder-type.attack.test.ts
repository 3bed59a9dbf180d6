import { describe, expect, it } from 'vitest';
import { useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-text): coq-hyps.ts `splitHyp` separates a let-bound hypothesis' body from its type at the *last* ` : `
 * at bracket depth 0. A type that binds with a colon (`forall n : nat, n = n`, printed without brackets) has one of
 * its own, so `x := fun n : nat => eq_refl : forall n : nat, n = n` is shown as `x : nat, n = n` (the body is
 * taken as `fun n : nat => eq_refl : forall n`): the goal view, premise search and the `.v` derivation's context
 * read a type Coq never printed.
 */
// Fixed (session 15): the type is Coq's. The plugin's `Arbor_let_types.` prints each let-bound hypothesis' type as
// coqidetop's goal print does (same printer, same context), by goal id; `splitHyp` takes it when the hypothesis' text
// ends with ` : ` and that type, the rest being the body (goal view, premise search, `.v` derivation contexts).
// Without the plugin the text is still split at its last top-level ` : `.
describe('a let-bound hypothesis whose type binds a name (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('the hypothesis x shows its type `forall n : nat, n = n`', { timeout: 120_000 }, async () => {
    const r = await real.session(['GOAL t "True"', 'APPLY (pose (x := fun n : nat => @eq_refl nat n))']);
    expect(r[1]?.ERR).toBe('');
    const hyps = (r[1]?.RESPONSE as { ctxt: { hyps: { name: string; expr: string }[] } }).ctxt.hyps;
    expect(hyps.find((h) => h.name === 'x')?.expr).toContain('forall n : nat, n = n');
  });
});
