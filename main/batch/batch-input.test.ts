import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchIdOf, BatchInputError, readBatchInput } from './batch-input.ts';
import { writeLoopProblems } from './testing/loop-problems.ts';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'arbor-batch-input-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readBatchInput', () => {
  it('fidelity: one job per case; a bad row is an item of its own; job ids are derived from the input and options', async () => {
    const path = file('cases.tsv', 'id\tcanonical\tcandidate\na\tforall n : nat, n = n\tforall m : nat, m = m\nb\tTrue\nc\tFalse\tFalse\na\tTrue\tTrue\n');
    const first = await readBatchInput('fidelity', path, { tiers: ['s0', 's1'] });
    expect(first.items.map((i) => i.id)).toEqual(['a', 'c']);
    expect(first.bad.map((b) => b.id)).toEqual(['line 3', 'a (again)']);
    expect(first.bad[1]?.message).toMatch(/duplicate item id 'a'/);
    const again = await readBatchInput('fidelity', path, { tiers: ['s0', 's1'] });
    expect(again.items.map((i) => i.jobId)).toEqual(first.items.map((i) => i.jobId));
    expect(again.bad.map((b) => b.jobId)).toEqual(first.bad.map((b) => b.jobId));
    // Other options are another job: a re-run with them does not take the old results.
    const slower = await readBatchInput('fidelity', path, { tiers: ['s0', 's1'], timeoutSeconds: 9 });
    expect(slower.items[0]?.jobId).not.toBe(first.items[0]?.jobId);
    expect(first.items[0]?.jobId).toMatch(/^fidelity-[0-9a-f]{32}$/);
    expect(batchIdOf('fidelity', first.items.map((i) => i.jobId))).toBe(batchIdOf('fidelity', [...first.items.map((i) => i.jobId)].reverse()));
  });

  it('fidelity: a file without the required columns is an error of the whole input', async () => {
    await expect(readBatchInput('fidelity', file('nohead.tsv', 'x\ty\n1\t2\n'))).rejects.toBeInstanceOf(BatchInputError);
  });

  it('aim: theorems become jobs with the preamble; lines that are not theorems, or do not parse, are reported in line order', async () => {
    const { file: path, names } = writeLoopProblems(dir, 'in', ['fast', 'slow'], ['garbage here', 'Theorem t_bad: x * = y.', 'more garbage']);
    const { items, bad } = await readBatchInput('aim', path);
    expect(items.map((i) => i.id)).toEqual(names);
    expect(items[0]?.job).toMatchObject({ kind: 'aim', limitMs: 10_000, useE: true });
    expect(bad.map((b) => b.id)).toEqual(['line 15', 'line 16', 'line 17']);
    expect(bad[0]?.message).toMatch(/not a theorem line: garbage here/);
    expect(bad[1]?.message).toMatch(/x \* = y/);
  });

  it('hammer: one statement a line, quoted or not', async () => {
    const { items, bad } = await readBatchInput('hammer', file('st.txt', 'forall n : nat, n + 0 = n\n"forall b : bool, negb (negb b) = b"\n'), { timeoutSeconds: 5 });
    expect(bad).toEqual([]);
    expect(items.map((i) => i.job)).toEqual([
      { kind: 'hammer', id: 'line 1', statement: 'forall n : nat, n + 0 = n', seconds: 5 },
      { kind: 'hammer', id: 'line 2', statement: 'forall b : bool, negb (negb b) = b', seconds: 5 },
    ]);
  });

  it('check: the proof documents of a folder; none is an error of the input', async () => {
    const docs = join(dir, 'docs');
    await expect(readBatchInput('check', join(dir, 'nope'))).rejects.toBeInstanceOf(BatchInputError);
    mkdirSync(join(docs, 'sub'), { recursive: true });
    await expect(readBatchInput('check', docs)).rejects.toThrow(/no proof documents/);
    writeFileSync(join(docs, 'b.arbor'), 'GOAL "True"\nEND\n');
    writeFileSync(join(docs, 'sub', 'a.arbor'), 'GOAL "True"\nEND\n');
    const { items } = await readBatchInput('check', docs);
    expect(items.map((i) => i.id)).toEqual(['b.arbor', 'sub/a.arbor']);
  });

  it('never reads outside the input folder: absolute, .. and escaping links are refused per case, the rest runs', async () => {
    const outside = join(dir, 'outside');
    const cases = join(dir, 'cases');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(cases, 'lib'), { recursive: true });
    writeFileSync(join(outside, 'secret.v'), 'Definition secret := 42.');
    writeFileSync(join(cases, 'lib', 'ok.v'), 'Definition ok := 1.');
    symlinkSync(join(outside, 'secret.v'), join(cases, 'link.v'));
    symlinkSync(join(cases, 'lib', 'ok.v'), join(cases, 'inner.v'));
    const rows = [
      ['abs', join(outside, 'secret.v')], ['up', '../outside/secret.v'], ['link', 'link.v'],
      ['good', 'lib/ok.v'], ['innerlink', 'inner.v'], ['text', 'Definition t := 2.'],
    ];
    const path = file('cases/cases.tsv', `id\tcanonical\tcandidate\tcontext\n${rows.map(([id, ctx]) => `${id}\tTrue\tTrue\t${ctx}`).join('\n')}\n`);
    const { items, bad } = await readBatchInput('fidelity', path);
    expect(items.map((i) => [i.id, (i.job as { context?: string }).context])).toEqual([
      ['good', 'Definition ok := 1.'], ['innerlink', 'Definition ok := 1.'], ['text', 'Definition t := 2.'],
    ]);
    expect(bad.map((b) => b.id)).toEqual(['abs', 'up', 'link']);
    expect(bad[0]?.message).toMatch(/absolute paths are not allowed/);
    expect(bad[1]?.message).toMatch(/'\.\.' is not allowed/);
    expect(bad[2]?.message).toMatch(/outside the input's folder/);
    expect(JSON.stringify({ items, bad })).not.toContain('secret := 42');
  });

  it('check: a document that is a link out of the folder is refused, the others run', async () => {
    const docs = join(dir, 'docs-links');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(dir, 'elsewhere.arbor'), 'GOAL "secret"\n');
    writeFileSync(join(docs, 'a.arbor'), 'GOAL "True"\nEND\n');
    symlinkSync(join(dir, 'elsewhere.arbor'), join(docs, 'b.arbor'));
    const { items, bad } = await readBatchInput('check', docs);
    expect(items.map((i) => i.id)).toEqual(['a.arbor']);
    expect(bad).toMatchObject([{ id: 'b.arbor', message: expect.stringMatching(/outside the input folder/) }]);
  });
});
