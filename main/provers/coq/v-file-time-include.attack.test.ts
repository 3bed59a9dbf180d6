import { describe, expect, it } from 'vitest';
import { vFileDerivations } from './v-file-derivations.ts';

/**
 * Attack (atk-blocks, session 15): a `.v` file opened read-only may `Include` anywhere; including a module type
 * outside one makes its fields axioms of the file's library, so every later theorem must be asked what it rests on
 * (v-file-derivations.ts `included`). That flag is set by a regex on Coq's reprint (`^#[…]* Include`) and, since
 * session 15, by `asks && where === undefined` (only when the plugin is absent). `Time Include T.` is judged as
 * `Include T.` (the policy unwraps `Time`, and read-only allows `Include`), but its reprint starts with `Time`: with
 * the plugin built, `where` is Coq's answer (not undefined) and the regex misses it, so `included` stays false.
 * Then `Theorem t : False. Proof. exact bad. Qed.` resting on the top-level axiom `Top.bad` is shown finished, with
 * no "rests on". (Without the plugin the same file is asked: `where === undefined` sets `included`.)
 * Checked (session 15): with coq-plugin/build moved away, every test here passes — the no-plugin fallback sets
 * `included` for any allowed assumption or Include, so later theorems are asked; with the plugin they are not.
 */
// Fixed (session 15): once a .v file's assumption or Include is allowed (however wrapped), every later theorem is asked what it rests on.
describe('`Time Include` of a module type hides a top-level axiom from a .v file\'s theorems (attack)', () => {
  it('a theorem of False after `Time Include T.` at top level says what it rests on', { timeout: 120_000 }, async () => {
    const file = `Module Type T. Axiom bad : False. End T.\nTime Include T.\nTheorem t : False.\nProof. exact bad. Qed.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    const t = r.theorems.find((x) => x.name === 't');
    expect(t?.ending).toBe('Qed');
    // Coq's Print Assumptions says `bad : False` (Top.bad): the theorem must show it.
    expect(t?.restsOn?.map((a) => a.name)).toContain('bad');
  });
  it('the same inside a module: `M.bad` is an axiom of the library, and `t` rests on it', { timeout: 120_000 }, async () => {
    const file = `Module Type T. Axiom bad : False. End T.\nModule M.\nTime Include T.\nEnd M.\nTheorem t : False.\nProof. exact M.bad. Qed.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    const t = r.theorems.find((x) => x.name === 't');
    expect(t?.ending).toBe('Qed');
    expect(t?.restsOn?.map((a) => a.name)).toContain('M.bad');
  });
  it('control: a plain `Include T.` is asked (the theorem rests on M.bad)', { timeout: 120_000 }, async () => {
    const file = `Module Type T. Axiom bad : False. End T.\nModule M.\nInclude T.\nEnd M.\nTheorem t : False.\nProof. exact M.bad. Qed.\n`;
    const r = await vFileDerivations(file, { timeoutMs: 30_000 });
    expect(r.theorems.find((x) => x.name === 't')?.restsOn?.map((a) => a.name)).toContain('M.bad');
  });
});
