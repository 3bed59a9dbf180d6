import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoqc } from '../../fidelity/run-coqc.ts';
import { CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText, scriptOf, TextRefused } from './coq-text-runner.ts';

// Real coqidetop: Coq delimits every sentence, the policy judges Coq's reading, exactly that text runs.
let client: CoqideTopClient;
let start: number;
const dir = mkdtempSync(join(tmpdir(), 'arbor-sentences-'));
/** A sentence that, if it ever ran, leaves `<name>.out` behind (Redirect writes its output there). */
const hidden = (name: string): string => `Redirect "${join(dir, name)}" Print nat.`;
const ran = (name: string): boolean => existsSync(join(dir, `${name}.out`));

beforeAll(async () => {
  client = await CoqideTopClient.start();
  start = client.tip;
});
afterAll(async () => {
  await client.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function run(text: string, purpose: 'define' | 'prelude' = 'define'): Promise<{ ok: true; script: string } | { ok: false; message: string }> {
  try {
    const r = await runCoqText(client, text, { purpose, timeoutMs: 20_000 });
    return { ok: true, script: scriptOf(r) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  } finally {
    if (client.tip !== start) await client.editAt(start);
  }
}

describe('hostile text: the hidden sentence never runs, and the refusal says why', () => {
  const cases: [string, (h: string) => string, RegExp][] = [
    ['a string inside a comment opening a comment', (h) => `Definition ok := 1. (* "(*" *) ${h} (* "*)" *)`, /sentence not allowed: Redirect/],
    ['a string inside a comment, hostile setting', () => 'Definition ok := 1. (* "(*" *) Set Hammer PredictPath "touch /tmp/x;". (* "*)" *)', /option not allowed: Hammer PredictPath/],
    ['a comment terminator inside a string', (h) => `Require Import String. Definition s := "*)"%string. ${h}`, /sentence not allowed: Redirect/],
    ['a comment opener inside a string', (h) => `Require Import String. Definition s := "(*"%string. ${h} (* *)`, /sentence not allowed: Redirect/],
    ['nested comments closed early', (h) => `Definition ok := 1. (* a (* b *) *) ${h}`, /sentence not allowed: Redirect/],
    ['a stray comment terminator', (h) => `Definition ok := 1. *) ${h}`, /parse error/],
    ['a recursive notation before the hidden sentence', (h) => `Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..). ${h}`, /sentence not allowed: Redirect/],
    ['`..` followed by a blank in a term', (h) => `Definition l := (cons 1 .. (cons 2 nil) ..). ${h}`, /parse error|Special token \.\. is for use in the Notation command/],
    ['a full-width full stop', (h) => `Definition ok := 1．${h}`, /parse error/],
    ['a homoglyph command (Cherokee R)', () => `Definition ok := 1. \u13A1edirect "${join(dir, 'homoglyph')}" Print nat.`, /parse error/],
    ['no-break spaces between the words of a setting', () => 'Set\u00a0Hammer\u00a0PredictPath "touch /tmp/x;".', /parse error|option not allowed/],
    ['a bullet hiding a command inside a proof', (h) => `Lemma l : True. Proof. - ${h} exact I. Qed.`, /sentence not allowed: Redirect \(inside a proof\)/],
    ['a brace glued to a command', (h) => `Lemma l : True. Proof. {${h} exact I. } Qed.`, /sentence not allowed: Redirect \(inside a proof\)/],
    ['a bullet outside any proof', (h) => `- ${h}`, /sentence not allowed: -/],
    ['a vertical tab before the hidden sentence', (h) => `Definition ok := 1.\u000b${h}`, /control characters/],
    ['a C1 next-line character', (h) => `Definition ok := 1.\u0085${h}`, /control characters/],
    ['a missing final dot', (h) => `Definition ok := 1. ${h.replace(/\.$/, '')}`, /parse error/],
    ['an unterminated comment', (h) => `Definition ok := 1. (* ${h}`, /Unterminated comment/],
    ['an unterminated string in a comment', (h) => `Definition ok := 1. (* " *) ${h}`, /parse error/],
    ['a proof given up', (h) => `Lemma l : False. Proof. admit. Qed. ${h}`, /not allowed: admit/],
    ['a proof left admitted', (h) => `Lemma l : False. Admitted. ${h}`, /not allowed: Admitted/],
  ];
  cases.forEach(([name, text, why], k) => {
    it(name, async () => {
      const r = await run(text(hidden(`case${k}`)));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(why);
      expect(ran(`case${k}`)).toBe(false);
      expect(ran('homoglyph')).toBe(false);
      expect(client.tip).toBe(start);
    });
  });

  it('very long input: delimited by Coq in bounded time, the hidden sentence refused', async () => {
    const t0 = performance.now();
    const many = Array.from({ length: 300 }, (_, i) => `Definition d${i} := ${i}.`).join(' ');
    const r = await run(`${many} (* ${'a. (* b. *) "c. *)" '.repeat(2000)} *) ${hidden('long')}`);
    const ms = performance.now() - t0;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/sentence not allowed: Redirect/);
    expect(ran('long')).toBe(false);
    expect(ms).toBeLessThan(100_000);
    console.log(`long input (${many.length + 40_000} characters, 300 sentences): ${Math.round(ms)} ms`);
  }, 120_000);
});

describe('honest text Coq accepts is accepted, and its script is what ran', () => {
  const honest = [
    'Require Import Arith. Notation "x =? y" := (Nat.eqb x y) (at level 70) : nat_scope.',
    "Fixpoint app' (A : Type) (l m : list A) : list A := match l with nil => m | cons a l' => cons a (app' A l' m) end.",
    'Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..). Definition l3 := [[1; 2; 3]].',
    'Lemma and_swap (P Q : Prop) : P /\\ Q -> Q /\\ P. Proof. intros [p q]. split. - simpl. exact q. - { auto. } Qed.',
    'Lemma two : True /\\ True. Proof.\n  split.\n  + exact I.\n  + {exact I. }\nQed.',
    'Definition s := 1. (* a comment with "a string. *)" and (* a nested one *) *) Definition t := s.',
    'Definition π := 3. Definition café (n : nat) := n + π.',
    'Definition x : nat. exact 1. Defined.',
  ];
  for (const text of honest) {
    it(text.slice(0, 60), async () => {
      const r = await run(text);
      expect(r).toMatchObject({ ok: true });
      if (!r.ok) return;
      // The script of what ran compiles alone, and holds every sentence (comments aside) of the text.
      const compiled = await runCoqc(`${r.script}\n`, { killAfterMs: 60_000 });
      expect(compiled.output).not.toMatch(/Error/);
      expect(compiled.ok).toBe(true);
    });
  }

  it('a refusal is a TextRefused that names the sentences already undone', async () => {
    const e = await runCoqText(client, `Definition a := 1. Definition b := 2. ${hidden('count')}`, { purpose: 'define', timeoutMs: 5000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TextRefused);
    expect((e as TextRefused).ran).toBe(2);
    expect(client.tip).toBe(start);
  });
});
