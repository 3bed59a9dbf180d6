import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { runProcess } from '../../process/process-manager.ts';
import { quoted as q, useRealShell } from './testing/real-shell.ts';
import { vFileDerivations } from './v-file-derivations.ts';

/**
 * Attacks on 367dc27: a parser error that Coq places past the piece's end (`loc_e`, bytes) lets the sentence
 * search go on to the next dot. Through the real arbor-shell and coqidetop. The rule: nothing reaches Coq or
 * SCRIPT except a sentence Coq delimited; a bad text is refused with a clear error and changes nothing;
 * refusal stays bounded in time.
 */
const real = useRealShell(['--timeout', '20', '--pool', '0']);
let dir: string;
beforeAll(async () => {
  await mkdir(join(process.cwd(), '.tmp'), { recursive: true });
  dir = await mkdtemp(join(process.cwd(), '.tmp', 'arbor-define-loc-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
let files = 0;
const compiles = async (script: unknown): Promise<void> => {
  const file = join(dir, `s${files++}.v`);
  await writeFile(file, String(script));
  const r = await runProcess({ program: 'coqc', args: [file], cwd: dir, timeoutMs: 180_000, sandbox: false });
  expect(r.exitCode, `${r.stderr || r.stdout}\n${String(script)}`).toBe(0);
};
const NOTATION = 'Notation "[ x |. ]" := (cons x nil).';
const refused = (r: ShellResponse | undefined): void => expect(r?.ERR, JSON.stringify(r).slice(0, 300)).toMatch(/^parse error/);

describe('DEFINE past-the-end parse errors (real coqidetop, coqc)', () => {
  // HELD: multi-byte characters (2, 3, 4 bytes; UTF-16 surrogate pairs) before an incomplete notation; the
  // byte offset Coq gives is compared with the piece's UTF-8 length.
  it('multi-byte names, comments and strings before `|.`: accepted, SCRIPT compiles', { timeout: 300_000 }, async () => {
    const rs = await real.session([
      `DEFINE ${q(`${NOTATION} Definition é𝔸漢😀 := (* é 𝔸 漢 😀 "😀." *) [ 1 |. ].`)}`,
      `DEFINE ${q('Definition 𝔸𝔸𝔸𝔸𝔸𝔸𝔸𝔸 := ("é𝔸漢😀. ", [ 2 |. ]).')}`,
      'SCRIPT',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(rs[1]?.ERR).toBe('');
    await compiles(rs[2]?.RESPONSE);
  });

  // HELD: a genuine error after multi-byte text (where a char/byte mix-up would place it "past the end") refuses.
  it('a genuine error at the end of a piece after many 4-byte characters still refuses, changes nothing', { timeout: 300_000 }, async () => {
    const e = '😀'.repeat(40);
    const rs = await real.session([
      `DEFINE ${q(`Definition ok1 := 1. Definition z${e} := 1 +. Definition w := 2.`)}`,
      `DEFINE ${q(`Definition ok2 := 1. (* ${e} *) Definition z := ( 1 . Definition w := 2.`)}`,
      `DEFINE ${q(`${NOTATION} Definition ok3 := 1. Definition 𝔸${e} := [ 1 |. ] ) . Definition w := 2.`)}`,
      `DEFINE ${q(`${NOTATION} Definition ok4 := 1. Definition 𝔸 := [ 1 |. ${e}`)}`,
      'SCRIPT',
    ]);
    for (const r of rs.slice(0, 4)) refused(r);
    expect(String(rs[4]?.RESPONSE)).not.toMatch(/ok1|ok2|ok3|ok4|Definition z|Definition w/);
  });

  // HELD: other notation tokens that end in a dot (postfix `|.`, `..`-like `:.`), a dot token at the end.
  it('postfix and infix notation tokens ending in a dot: sentence ends where coqc ends it', { timeout: 300_000 }, async () => {
    const rs = await real.session([
      `DEFINE ${q('Notation "x :." := (S x) (at level 1). Definition a := 1 :. . Definition b := 2 :. .')}`,
      `DEFINE ${q('Notation "x .|. y" := (x + y) (at level 50). Definition c := 1 .|. 2.')}`,
      'SCRIPT',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(rs[1]?.ERR).toBe('');
    await compiles(rs[2]?.RESPONSE);
  });

  // Every dot gives a past-the-end error: the search gallops over the dots and refuses at the text's end.
  it('1 MB of `[ 1 |. ` (every dot past-the-end): refused within bounded time, session still answers', { timeout: 600_000 }, async () => {
    const big = '[ 1 |. '.repeat(Math.ceil((1 << 20) / 7));
    const flat = `Definition z := 1 ${'+ [ 1 |. ] '.repeat(80_000)}+ ) .`;
    const t0 = Date.now();
    const rs = await real.session([
      `DEFINE ${q(NOTATION)}`,
      `DEFINE ${q(`Definition ok5 := ${big}`)}`,
      `DEFINE ${q(flat)}`,
      'DEFINE "Definition after := 1."',
      'SCRIPT',
    ]);
    const ms = Date.now() - t0;
    console.log(`1 MB past-the-end texts: ${ms} ms`, rs.slice(1, 3).map((r) => String(r.ERR).slice(0, 120)));
    expect(rs[0]?.ERR).toBe('');
    refused(rs[1]);
    refused(rs[2]);
    expect(rs[3]?.ERR).toBe('');
    expect(String(rs[4]?.RESPONSE)).not.toMatch(/ok5|Definition z/);
    expect(ms).toBeLessThan(300_000);
  });
});

describe('.v file opening with past-the-end errors (real coqidetop)', () => {
  it('a .v file with `|.` notations and multi-byte names reads its theorems; a genuine error stops at its line', { timeout: 300_000 }, async () => {
    const good = [NOTATION, 'Definition é😀 := [ 1 |. ].', 'Lemma l𝔸 : é😀 = [ 1 |. ]. Proof. reflexivity. Qed.'].join('\n');
    const r1 = await vFileDerivations(`${good}\n`, { timeoutMs: 60_000 });
    expect(r1.stopped, JSON.stringify(r1.stopped)).toBeUndefined();
    expect(r1.theorems.map((t) => t.name)).toEqual(['l𝔸']);
    const r2 = await vFileDerivations(`${good}\nDefinition bad😀 := [ 1 |. ] ) .\nLemma after : True. Proof. exact I. Qed.\n`, { timeoutMs: 60_000 });
    expect(r2.stopped?.line, JSON.stringify(r2.stopped)).toBe(4);
    expect(r2.stopped?.message).toMatch(/parse error|Syntax/i);
  });
});
