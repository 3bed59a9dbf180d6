import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText, TextRefused } from './coq-text-runner.ts';
import type { OpenBlock } from './document-blocks.ts';

/**
 * Attack (atk-blocks, session 15): the fallback where Arbor's plugin is not built (coqidetop started without it, as
 * a machine where `coq-plugin/build.sh` failed has it). `coqOpenBlocks` answers undefined, the policy judges by its
 * reading of Coq's reprint, and the DEFINE's end check is skipped (`coq !== undefined`): the session-14 notation trick
 * (`block-let-notation.attack.test.ts`) works again. `Axiom bad : False.` after a module type Coq defined at once is
 * taken as a field, runs at top level (Top.bad), and the document's blocks are recorded as `module type N` (the
 * SCRIPT then ends with `End N.`, which coqc refuses: "There is nothing to end"; seen with the real shell). END still
 * refuses a proof using `bad` by kernel name (docs/untrusted-text.md says so): a documented gap, shown here because
 * the fallback could refuse an assumption whenever it cannot ask Coq (a DEFINE holding `:=` in a block sentence).
 */
const TEXT = `Notation "x 'let'" := (S x) (at level 1, left associativity). Module Type T. Parameter x : nat. End T. Module Type N <: T with Definition x := 0 let := T with Definition x := 1. Axiom bad : False.`;
// Fixed (session 15): without the plugin, an assumption in a DEFINE or PRELUDE is refused (Coq cannot be asked where it stands).
describe('without the plugin, the reading decides where an Axiom stands (attack, real coqidetop without Arbor\'s plugin)', () => {
  let client: CoqideTopClient;
  beforeAll(async () => {
    client = await CoqideTopClient.start();
  }, 60_000);
  afterAll(async () => {
    await client.dispose();
  });
  it('the DEFINE is refused (the Axiom never runs), or at least the blocks it records are Coq\'s (nothing open)', { timeout: 120_000 }, async () => {
    let after: OpenBlock[] | undefined;
    const start = client.tip;
    try {
      await runCoqText(client, TEXT, { purpose: 'define', timeoutMs: 30_000, blocks: { open: [], after: (o) => { after = o; } } });
    } catch (e) {
      if (e instanceof TextRefused) return; // held
      throw e;
    }
    // Coq knows `bad` at top level, and the document believes module type N is still open.
    const about = await client.query('Locate bad.', client.tip, 10_000);
    await client.editAt(start);
    expect(about.map((m) => m.text).join('\n')).not.toMatch(/Constant Top\.bad/);
    expect(after).toEqual([]);
  });
  it('an honest section variable is refused too, and the message says to build the plugin (nothing runs blind)', { timeout: 60_000 }, async () => {
    const start = client.tip;
    const r = await runCoqText(client, 'Section S. Variable n : nat. End S.', { purpose: 'define', timeoutMs: 30_000, blocks: { open: [], after: () => undefined } }).then(() => '', (e: unknown) => (e as Error).message);
    expect(client.tip).toBe(start);
    expect(r).toMatch(/assumptions are not allowed here.*plugin is not loaded.*coq-plugin\/build\.sh/);
  });
});
