import { describe, expect, it } from 'vitest';
import { vFileDerivations } from './v-file-derivations.ts';

/**
 * Attack (atk-blocks, session 15): inside a module type a `.v` file's `Axiom` is a field and passes (Coq says the
 * module type is open). A theorem proved inside that module type from the field, `Theorem t : False. Proof. exact
 * bad. Qed.`, is shown finished with no "rests on": no later theorem is asked (`included`/`anyAdmitted` are false).
 * Coq's Print Assumptions names `bad` (kernel name Top.T.bad), and the same proof as a document is refused at END
 * ("unsound: depends on bad (Top.T.bad)"): the .v view calls finished a proof of False that a document refuses.
 * Pre-existing (not new in session 15), found while attacking the block check.
 * Checked (session 15): with coq-plugin/build moved away, every test here passes — the no-plugin fallback sets
 * `included` for any allowed assumption or Include, so later theorems are asked; with the plugin they are not.
 */
// Fixed (session 15): once a .v file's assumption or Include is allowed, every later theorem is asked what it rests on.
describe('a theorem inside a module type rests on the module type\'s fields (attack)', () => {
  it('`t : False` proved from a field inside `Module Type T` says it rests on `bad`', { timeout: 120_000 }, async () => {
    const file = `Module Type T.\nAxiom bad : False.\nTheorem t : False.\nProof. exact bad. Qed.\nEnd T.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    const t = r.theorems.find((x) => x.name === 't');
    expect(r.skipped).toBeUndefined();
    expect(t?.ending).toBe('Qed');
    expect(t?.restsOn?.length ?? 0).toBeGreaterThan(0);
  });
  it('the same through `Declare Module X : T.` inside a module type: `t : False` from `X.bad` says what it rests on', { timeout: 120_000 }, async () => {
    // As a document (the .v view's own conversion), END says "unsound: depends on X.bad (Top.U.X.bad)".
    const file = `Module Type T.\nAxiom bad : False.\nEnd T.\nModule Type U.\nDeclare Module X : T.\nTheorem t : False.\nProof. exact X.bad. Qed.\nEnd U.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    const t = r.theorems.find((x) => x.name === 't');
    expect(r.skipped).toBeUndefined();
    expect(t?.ending).toBe('Qed');
    expect(t?.restsOn?.length ?? 0).toBeGreaterThan(0);
  });
  it('a file that opens a module type and never closes it: every Axiom passes, `1 = 2` is shown finished with no "rests on"', { timeout: 120_000 }, async () => {
    // coqc refuses the file (the module type is never closed); the .v view reads it sentence by sentence and never asks.
    const file = `Module Type Everything.\nAxiom bad : False.\nTheorem one_is_two : 1 = 2.\nProof. destruct bad. Qed.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    const t = r.theorems.find((x) => x.name === 'one_is_two');
    expect(r.skipped).toBeUndefined();
    expect(t?.ending).toBe('Qed');
    expect(t?.restsOn?.length ?? 0).toBeGreaterThan(0);
  });
});
