import { describe, expect, it } from 'vitest';
import { CoqCrash, CoqideTopClient } from './coqidetop-client.ts';
import { declaredBy } from './coq-declarations.ts';

/** What a DEFINE declared, read back from a real coqidetop; its queries share the request's limit. */
describe('declaredBy (real coqidetop)', () => {
  // As the text runner gives them: one sentence each, the lemma's head with its proof open.
  const define = async (client: CoqideTopClient, sentences: string[]): Promise<{ pp: string; stateId: number; proofOpen: boolean }[]> => {
    const out: { pp: string; stateId: number; proofOpen: boolean }[] = [];
    for (const pp of sentences) out.push({ pp, stateId: await client.add(pp), proofOpen: /^(Lemma|Proof|reflexivity)/.test(pp) });
    await client.goals();
    return out;
  };

  it('reads 300 lemmas declared at once, their `About`s in one exchange under the limit it is given', { timeout: 120_000 }, async () => {
    const client = await CoqideTopClient.start();
    try {
      const lemmas = Array.from({ length: 300 }, (_, i) => [`Lemma l_${i}' : ${i} = ${i}.`, 'Proof.', 'reflexivity.', 'Qed.']);
      const ran = await define(client, ['Definition zz (n : nat) := n.', ...lemmas.flat()]);
      const declared = await declaredBy(client, ran, 60_000);
      expect(declared.map((d) => d.name)).toEqual(['zz', ...Array.from({ length: 300 }, (_, i) => `l_${i}'`)]);
      expect(declared.find((d) => d.name === "l_299'")?.type).toBe('299 = 299');
    } finally {
      await client.dispose();
    }
  });

  it('a prover that died while the declarations were read is the request\'s crash, not an empty answer', { timeout: 60_000 }, async () => {
    const client = await CoqideTopClient.start();
    const ran = await define(client, ['Definition zz (n : nat) := n.']);
    client.kill();
    await client.exited;
    await expect(declaredBy(client, ran, 5000)).rejects.toBeInstanceOf(CoqCrash);
  });
});
