import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText } from './coq-text-runner.ts';

/**
 * Attack on the in-proof rule (issue 24): a capitalised sentence passes as a tactic only when Coq's own
 * `Annotate` prints it as a call to that name. Ltacs and tactic notations named like commands, look-alikes,
 * prefixes and a cheating Ltac: the command never runs (its `Redirect` file never appears) and nothing
 * false is accepted. Real coqidetop.
 */
const TMP = fileURLToPath(new URL('../../../.tmp/', import.meta.url));
let client: CoqideTopClient;
let start: number;
let dir: string;
const hidden = (name: string): string => `Redirect "${join(dir, name)}" Print nat.`;
const ran = (name: string): boolean => existsSync(join(dir, `${name}.out`));

beforeAll(async () => {
  dir = mkdtempSync(join(TMP, 'atk-tactic-head-'));
  client = await CoqideTopClient.start();
  start = client.tip;
}, 60_000);
afterAll(async () => {
  await client.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function run(text: string): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    await runCoqText(client, text, { purpose: 'define', timeoutMs: 20_000 });
    return { ok: true };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  } finally {
    if (client.tip !== start) await client.editAt(start);
  }
}

const inProof = (defs: string, sentence: string): string => `${defs} Lemma l : True. Proof. ${sentence} exact I. Qed.`;

describe('a command never passes as a capitalised tactic (real coqidetop)', () => {
  const cases: [string, (h: string) => string][] = [
    ['an Ltac named Redirect', (h) => inProof('Ltac Redirect := idtac.', h)],
    ['a Tactic Notation spelling the command', (h) => inProof('Tactic Notation "Redirect" string(s) "Print" ident(i) := idtac.', h)],
    ['a Tactic Notation of one capitalised word, then the command', (h) => inProof('Tactic Notation "Redirect" := idtac.', h)],
    ['an Ltac named Time before the command', (h) => inProof('Ltac Time := idtac.', `Time ${h}`)],
    ['an Ltac named Local before the command', (h) => inProof('Ltac Local := idtac.', `Local ${h}`)],
    ['an Ltac named Fail around the command', (h) => inProof('Ltac Fail := idtac.', `Fail Fail ${h}`)],
    ['a tactic call, a comment, then the command', (h) => inProof('Ltac Foo := idtac.', `Foo (* . *) . ${h}`)],
    ['an Ltac that takes the command as its argument', (h) => inProof('Ltac Foo x := idtac.', `Foo ${h}`)],
  ];
  cases.forEach(([name, text], k) => {
    it(name, async () => {
      const r = await run(text(hidden(`case${k}`)));
      console.log(name, JSON.stringify(r));
      expect(r.ok, JSON.stringify(r)).toBe(false);
      expect(ran(`case${k}`)).toBe(false);
      expect(client.tip).toBe(start);
    }, 60_000);
  });

  it('an option set inside a proof, with an Ltac named after the option, is refused', async () => {
    const r = await run(inProof('Ltac Printing := idtac.', 'Set Printing All.'));
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/Set \(inside a proof\)/) as unknown });
  }, 60_000);

  it('a capitalised Ltac that gives up a goal passes the gate but never reaches a Qed', async () => {
    const r = await run('Ltac Cheat := admit. Lemma bad : False. Proof. Cheat. Qed.');
    expect(r.ok).toBe(false);
    const p = await run('Ltac Cheat := give_up. Lemma bad : False. Proof. Cheat. Defined.');
    expect(p.ok).toBe(false);
  }, 60_000);

  it('a look-alike name (Cherokee R) is only ever a tactic', async () => {
    expect(await run(inProof('Ltac \u13A1edirect := idtac.', '\u13A1edirect.'))).toEqual({ ok: true });
    const r = await run(inProof('Ltac \u13A1edirect := idtac.', `\u13A1edirect "${join(dir, 'lookalike')}" Print nat.`));
    expect(r.ok).toBe(false);
    expect(ran('lookalike')).toBe(false);
  }, 60_000);
});
