import { describe, expect, it } from 'vitest';
import { CoqSession } from './coq-session.ts';

/**
 * The verified stretch (closed-constants.ts) must hold for ordinary theorems, or every END pays a second
 * `Locate` exchange: `Check t` of a theorem with a maximal implicit argument (`{A}`) prints
 * `forall x : ?A, …` where `Inspect` prints `forall (A : Type) (x : A), …`, so the check failed at its END
 * and at the next one; and `Inspect` prints a universe-polymorphic theorem's universe instance, `Check` does not.
 */
describe('the verified stretch holds for theorems with implicit arguments (real coqidetop)', () => {
  for (const polymorphic of [false, true]) {
    it(`bare names are kept from one END to the next when the theorems have {A} binders${polymorphic ? ', universe-polymorphic' : ''}`, async () => {
      const session = await CoqSession.open({ timeoutMs: 20_000 });
      try {
        // `Inspect` prints a universe-polymorphic theorem as `r1@{u} : …`, `Check` as `r1`.
        if (polymorphic) await session.define('Set Universe Polymorphism.');
        const theorems = [
          ['r1', 'forall {A : Type} (x : A), x = x'],
          ['r2', 'forall {A : Type} (x y : A), x = y -> y = x'],
          ['r3', 'forall {A : Type} (x y : A), x = y -> y = x'],
        ];
        for (const [name, goal] of theorems) {
          await session.start(goal as string, name);
          await session.step({ kind: 'apply', tactic: 'intros; subst; reflexivity' });
          await session.finish();
        }
        // r3's names (A, x, y, eq, …) were all answered at r2's END: none asked again.
        const known = session.closedConstants.stats.locatedKnown;
        expect(known).toBeGreaterThanOrEqual(4);
      } finally {
        await session.dispose();
      }
    }, 120_000);
  }
});
