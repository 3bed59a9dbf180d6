import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TreeView } from '../../../shared/proof-tree/proof-tree.ts';
import type { VFileProgress } from '../../../shared/derivation/v-file-derivation.ts';
import { vFileDerivations } from './v-file-derivations.ts';

const STDLIB = '/usr/lib/ocaml/coq/theories';
const nodes = (t: TreeView): TreeView[] => [t, ...(t.children ?? []).flatMap(nodes)];

/**
 * `.v` files with real coqidetop: goals given up with `admit` are drawn given up (Coq's given_up list),
 * standard-library files read past `Include`, `Register` and queries, sentences Arbor refuses are skipped
 * (never run) with every later theorem marked, and a long run reports progress, can be cancelled and has an
 * overall limit — each keeping what was read.
 */
describe('.v files: given-up goals, stdlib files, progress (real coqidetop)', () => {
  it('draws a goal given up with admit (alone, inside `;`, under all:) as given up, never proved; Coq\'s closed goals stay proved', { timeout: 300_000 }, async () => {
    const r = await vFileDerivations([
      'Lemma l : True /\\ (True /\\ False).',
      'Proof. split.', '- exact I.', '- split; [exact I | admit].', 'Admitted.',
      'Lemma m : True /\\ True. Proof. split. all: admit. Admitted.',
      'Lemma q : True /\\ True. Proof. split; exact I. Qed.',
    ].join('\n'), { timeoutMs: 60_000 });
    expect(r.stopped).toBeUndefined();
    const [l, m, q] = r.theorems.map((t) => nodes(t.steps.at(-1)!.tree));
    const gaveUp = l!.find((n) => /admit/.test(n.action ?? ''))!;
    expect(gaveUp).toMatchObject({ givenUp: true });
    expect(gaveUp.status).not.toBe('proved');
    expect(l![0]).toMatchObject({ givenUp: true });
    expect(l!.find((n) => n.action === 'exact I')?.status).toBe('proved');
    expect(l!.find((n) => n.action === 'exact I')?.givenUp).toBeUndefined();
    // all: admit gives up both goals of the split: each is drawn given up.
    expect(m!.filter((n) => n.action === 'all: admit').map((n) => n.givenUp)).toEqual([true, true]);
    expect(q!.some((n) => n.givenUp)).toBe(false);
  });

  it('reads Bool.v and Init/Logic.v past their Register lines and PeanoNat.v past its Include to the end, every theorem kernel-checked', { timeout: 600_000 }, async () => {
    for (const file of ['Bool/Bool.v', 'Init/Logic.v', 'Arith/PeanoNat.v', 'Arith/Wf_nat.v']) {
      const text = readFileSync(`${STDLIB}/${file}`, 'utf8');
      const r = await vFileDerivations(text, { timeoutMs: 60_000 });
      expect(r.stopped, file).toBeUndefined();
      expect(r.skipped, file).toBeUndefined();
      const lastLine = text.split('\n').length;
      expect(Math.max(...r.theorems.map((t) => t.endLine)), file).toBeGreaterThan(lastLine * 0.8);
      // Nothing is called proved that did not end with Qed/Defined; nothing rests on an included signature.
      expect(r.theorems.filter((t) => t.converted.ok && t.ending !== 'Qed' && t.ending !== 'Defined'), file).toEqual([]);
    }
  });

  it('a sentence the read-only policy refuses is skipped, never run; the run goes on and every later theorem says it was read without it', { timeout: 300_000 }, async () => {
    const r = await vFileDerivations('Lemma a : True. Proof. exact I. Qed.\nRedirect "arbor-vfile-skip" Print nat.\nPrint "+".\nLemma b : True. Proof. exact I. Qed.\n', { timeoutMs: 60_000 });
    expect(existsSync('arbor-vfile-skip.out')).toBe(false);
    expect(r.stopped).toBeUndefined();
    expect(r.skipped).toEqual([{ line: 2, text: 'Redirect "arbor-vfile-skip" Print nat.', reason: expect.stringMatching(/not allowed: Redirect/) as unknown }]);
    expect(r.theorems.map((t) => [t.name, t.readWithout])).toEqual([['a', undefined], ['b', [2]]]);
    // A skipped assumption the file then uses: Coq's error stops the run, said with the skip.
    const axiom = await vFileDerivations('Axiom c : False.\nLemma d : False. Proof. exact c. Qed.\n', { timeoutMs: 60_000 });
    expect(axiom.stopped).toMatchObject({ line: 2, message: expect.stringMatching(/c was not found.*skipped sentence at line 1/) });
    expect(axiom.theorems.filter((t) => t.ending === 'Qed')).toEqual([]);
  });

  it('Include of a module type makes its fields assumptions: a theorem using them is marked and never converts', { timeout: 300_000 }, async () => {
    const r = await vFileDerivations('Module Type T. Parameter x : nat. Axiom ax : x = 1. End T.\nModule M. Include T. Lemma l : x = 1. Proof. exact ax. Qed. End M.\nLemma k : M.x = 1. Proof. exact M.l. Qed.\nLemma ok : 1 = 1. Proof. reflexivity. Qed.\n', { timeoutMs: 60_000 });
    expect(r.stopped).toBeUndefined();
    const by = new Map(r.theorems.map((t) => [t.name, t]));
    for (const name of ['l', 'k']) {
      expect(by.get(name)?.restsOn?.map((a) => a.name).join(' '), name).toMatch(/ax/);
      expect(by.get(name)?.converted.ok, name).toBe(false);
    }
    expect(by.get('ok')?.converted.ok).toBe(true);
  });

  it('Lists/List.v: progress after each sentence; Cancel and the overall limit stop the run and keep what was read', { timeout: 600_000 }, async () => {
    const text = readFileSync(`${STDLIB}/Lists/List.v`, 'utf8');
    const seen: VFileProgress[] = [];
    const cancel = new AbortController();
    const r = await vFileDerivations(text, {
      timeoutMs: 60_000, signal: cancel.signal,
      onProgress: (p) => {
        // After reading, progress says which theorem is being judged (atk-vfile): not a sentence.
        if (p.judging !== undefined) return;
        seen.push(p);
        if (p.theorems >= 15) cancel.abort();
      },
    });
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.every((p, i) => p.lines === seen[0]!.lines && (i === 0 || p.sentences === seen[i - 1]!.sentences + 1 && p.line >= seen[i - 1]!.line))).toBe(true);
    expect(seen[0]!.lines).toBe(text.split('\n').length);
    expect(seen.at(-1)!.lastTheorems.length).toBe(3);
    expect(r.stopped).toMatchObject({ cancelled: true, message: expect.stringMatching(/cancelled at line \d+/) });
    expect(r.theorems.filter((t) => t.ending === 'Qed').length).toBeGreaterThanOrEqual(15);
    expect(r.stopped!.line).toBeLessThan(text.split('\n').length / 2);

    // A limit far below the file's reading time on any machine (List.v reads in 20–120 s).
    const limited = await vFileDerivations(text, { timeoutMs: 60_000, wallClockMs: 3_000 });
    expect(limited.stopped?.message).toMatch(/may take at most 3 s/);
    expect(limited.theorems.length).toBeGreaterThan(0);
    expect(limited.ms).toBeLessThan(60_000);
  });
});
