import { describe, expect, it } from 'vitest';
import { useRealClient } from './testing/real-client.ts';
import { runCoqText } from './coq-text-runner.ts';
import type { OpenBlock } from './document-blocks.ts';

/**
 * Attack (atk-blocks, session 15), as an unlucky user: a DEFINE that may open or close a block is refused when either
 * text reading disagrees with Coq's `Arbor_blocks`, with "write each Section, Module and End sentence plainly". These
 * are plain, honest sentences Coq runs, and the refusal tells the user to do what they did:
 * - `Time Section S.` / `Time End S.`: the policy reads through `Time`, the exact-text reading (`blockEffect` on the
 *   sentence's text, for the SCRIPT) does not (`Time` is no prefix there), so the two readings disagree with each other.
 * - `Module M : T with Definition p := (fix f (n : nat) : nat := n) 0.`: every `:=` outside a `let` is counted, so the
 *   `fix`'s makes M look defined at once; Coq opened M. (Before session 15 this was only an `End M.` refused later.)
 */
const client = useRealClient({ plugin: true });
async function define(text: string): Promise<OpenBlock[] | string> {
  const c = client();
  const start = c.tip;
  let after: OpenBlock[] = [];
  try {
    await runCoqText(c, text, { purpose: 'define', timeoutMs: 30_000, blocks: { open: [], after: (o) => { after = o; } } });
    return after;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await c.editAt(start);
  }
}
// Fixed (session 15): after a text that may open or close a block, what is open is Coq's answer (Arbor_blocks), not a reading;
// `Time` is read through and `Fail` opens nothing in the script's own reading.
describe('honest block sentences a DEFINE refuses since Coq is asked (attack, real coqidetop with the plugin)', () => {
  it('`Time Section S.` opens section S', { timeout: 60_000 }, async () => {
    expect(await define('Time Section S. Variable n : nat.')).toEqual([{ kind: 'section', name: 'S' }]);
  });
  it('`Time End S.` closes it', { timeout: 60_000 }, async () => {
    expect(await define('Section S. Variable n : nat. Time End S.')).toEqual([]);
  });
  it('a `fix` inside a `with Definition` constraint: `Module M : T with …` stays open', { timeout: 60_000 }, async () => {
    const r = await define('Module Type T. Parameter p : nat. End T. Module M : T with Definition p := (fix f (n : nat) : nat := n) 0.');
    expect(Array.isArray(r) ? r.map((b) => `${b.kind} ${b.name}`) : r).toEqual(['module M']);
  });
  it('control: the plain forms pass', { timeout: 60_000 }, async () => {
    expect(await define('Section S. Variable n : nat. End S.')).toEqual([]);
    expect(await define('Module Type T. Parameter p : nat. End T. Module M : T with Definition p := 0.')).toMatchObject([{ kind: 'module', name: 'M' }]);
  });
});
