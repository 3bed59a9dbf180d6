import { describe, expect, it } from 'vitest';
import { itemLines, vToDocument } from './v-to-document.ts';

/** Attacks on `.v` → document conversion: hostile and odd files convert to what Coq means, quickly, or are skipped with a reason. */
describe('.v to document (attack)', () => {
  it('a `*)` inside a string inside a comment does not end the comment (Coq lexes strings in comments)', () => {
    const items = vToDocument('(* a "*)" string *)\nLemma y : True. Proof. exact I. Qed.');
    expect(items).toEqual([{ kind: 'proof', name: 'y', statement: 'True', tactics: ['exact I'], line: 2 }]);
  });

  it('a `(*` inside a string is not a comment', () => {
    const items = vToDocument('Definition s := "(*".\nLemma x : True. Proof. exact I. Qed.');
    expect(items.map((i) => i.kind)).toEqual(['define', 'proof']);
  });

  it('`Time` and `Timeout n` wrap a command that enters the environment: kept, without the wrapper', () => {
    const items = vToDocument('Time Definition z := 3.\nTimeout 5 Lemma w : z = 3. Proof. reflexivity. Qed.');
    expect(items).toEqual([
      { kind: 'define', text: 'Definition z := 3.', line: 1 },
      { kind: 'proof', name: 'w', statement: 'z = 3', tactics: ['reflexivity'], line: 2 },
    ]);
  });

  it('`Redirect` never becomes an item; `Cd`, `Drop`, `Set Hammer PredictPath` go to DEFINE, where the policy judges them', () => {
    const items = vToDocument('Redirect "out" Print nat.\nCd "/".\nDrop.\nSet Hammer PredictPath "/tmp/x".');
    expect(items[0]?.kind).toBe('skipped');
    // Whatever is not skipped reaches the shell only as DEFINE text, judged by the vernacular policy like any client's.
    expect(items.slice(1).flatMap(itemLines).every((l) => l.startsWith('DEFINE '))).toBe(true);
  });

  it('Admitted and unfinished proofs are never stated as proved theorems', () => {
    for (const v of ['Lemma c : False. Proof. Admitted.', 'Lemma g : False. Proof. exact I.', 'Lemma c : False. Proof. admit. Abort.']) {
      expect(vToDocument(v).some((i) => i.kind === 'proof'), v).toBe(false);
    }
    // An admitted proof is skipped with a reason that says so (it is never sent as a DEFINE the policy then refuses).
    expect(vToDocument('Lemma c : False.\nProof. intros. admit. Admitted.')).toEqual([
      { kind: 'skipped', text: 'Lemma c : False.', line: 1, reason: expect.stringMatching(/^c is Admitted, not proved/) as unknown },
    ]);
  });

  it('a large file converts in linear time (20 000 lemmas well under 10 s), lines counted right', () => {
    const text = 'Lemma l : True. Proof. exact I. Qed.\n'.repeat(20_000);
    const started = performance.now();
    const items = vToDocument(text);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(items).toHaveLength(20_000);
    expect(items[1]?.line).toBe(2);
    expect(items.at(-1)?.line).toBe(20_000);
  });

  it('deep nesting and binary bytes do not hang or throw', () => {
    const started = performance.now();
    expect(vToDocument('(*'.repeat(20_000) + ' Lemma k : True.')).toEqual([]);
    expect(vToDocument(`Definition big := ${'('.repeat(20_000)}0${')'.repeat(20_000)}.`)).toHaveLength(1);
    expect(vToDocument('\u0000\u0001\u00ff binary \u0000.\nLemma h : True. Proof. exact I. Qed.').at(-1)).toMatchObject({ kind: 'proof', name: 'h' });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
