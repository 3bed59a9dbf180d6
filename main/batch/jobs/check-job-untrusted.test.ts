import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CoqShells } from '../coq-shells.ts';
import { runCheckJob } from './check-job.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbor-check-untrusted-'));
const shells = new CoqShells();
afterAll(async () => {
  await shells.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A protocol string literal of `text` (only `\"` is an escape). */
const quoted = (text: string): string => `"${text.replace(/"/g, '\\"')}"`;
const check = (document: string) => runCheckJob({ kind: 'check', id: 'doc', document, timeoutMs: 20_000 }, shells, () => undefined);

describe('arbor batch check: a PRELUDE is Coq text like any other (real coqidetop and coqc)', () => {
  it('a hostile PRELUDE hiding a sentence in a string inside a comment fails at PRELUDE, and nothing runs (not in the session, not in coqc)', async () => {
    const out = join(dir, 'pwned');
    const prelude = `Definition ok := 1. (* "(*" *) Redirect ${quoted(out)} Print nat. (* "*)" *)`;
    const r = await check(`PRELUDE ${quoted(prelude)}\nGOAL "True"\nAPPLY exact I\nEND\n`);
    expect(r.outcome).toBe('failed');
    expect(r.evidence).toMatchObject({ line: 1, error: expect.stringMatching(/sentence not allowed: Redirect/) });
    expect(existsSync(`${out}.out`)).toBe(false);
  }, 180_000);

  it('an honest PRELUDE with notations, `..` and a proof with bullets and braces is verified; its own `[[ … ]]` is shown to differ from the clean reading', async () => {
    const prelude = [
      'Require Import List. (* "a string in a comment. *)" *)',
      'Notation "[[ x ; .. ; y ]]" := (cons x .. (cons y nil) ..).',
      'Lemma and_swap (P Q : Prop) : P /\\ Q -> Q /\\ P.',
      'Proof. intros [p q]. split. - exact q. - { exact p. } Qed.',
    ].join(' ');
    const r = await check(`PRELUDE ${quoted(prelude)}\nGOAL "length [[1; 2]] = 2"\nAPPLY reflexivity\nEND\n`);
    // Verified, and honest about meaning: in a clean environment `[[1; 2]]` is ListNotations' one-element list of a list.
    expect(r, JSON.stringify(r)).toMatchObject({ outcome: 'verified-different-meaning' });
    expect(r.evidence).toMatchObject({ closed: 1 });
    expect(JSON.stringify(r.evidence)).toMatch(/stands where a clean reading has/);
  }, 180_000);
});
