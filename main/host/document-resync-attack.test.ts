import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { DocumentSessions } from './document-sessions.ts';
import type { DocumentEvent } from './document-sessions.ts';
import { proversBelow, until } from '../process/testing/wait-for.ts';

/**
 * Attacks on whole-text sync (b2b3e0d: a text sent without its edit keeps the checked lines above its first
 * change) and on documents over lazily started channels. Real coqidetop.
 */
let factory: EngineFactory;
let shell: Shell;
const sent: string[] = [];

beforeAll(async () => {
  factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  shell = new Shell({ createEngine: (channel, prelude, environment) => factory.createEngine(channel, prelude, environment) });
  shell.onEvent((e) => {
    if (e.kind === 'request') sent.push(e.text);
  });
}, 60_000);

afterAll(async () => {
  await shell.close();
  await factory.dispose();
});

function sessions(prelude?: (path: string | undefined) => Promise<string | undefined>) {
  const events: DocumentEvent[] = [];
  const docs = new DocumentSessions({ shell, emit: (e) => events.push(e), recheckDelayMs: 50, ...(prelude ? { prelude } : {}) });
  return { docs, events, messages: () => events.filter((e) => e.kind === 'document-message').map((e) => (e as { text: string }).text) };
}

const provers = (): number[] => proversBelow();

const DOC = [
  'DEFINE "Definition double (n : nat) := n + n."',
  'GOAL double_2 "double 2 = 4"',
  '    APPLY reflexivity',
  'END',
  '// uses double_2',
  'GOAL "double (double 2) = 8"',
  '    APPLY (rewrite double_2; reflexivity)',
  'END',
];

/** Every checked line's text is the document's line at that number (the checked region never covers other text). */
const consistent = (docs: DocumentSessions, uri: string, lines: string[]): void => {
  const state = docs.get('w1', uri);
  for (const e of state?.check.entries ?? []) expect(lines[e.line - 1], `line ${e.line}`).toBe(e.text);
};

describe('whole-text sync under attack (real coqidetop)', () => {
  it('the same text with CRLF line ends, or a trailing newline added, keeps what is checked and stays consistent', async () => {
    const { docs } = sessions();
    docs.sync('w1', 'crlf', { version: 1, text: DOC.join('\n') });
    const first = await docs.run('w1', 'crlf', { kind: 'all' });
    expect(first.check.entries).toHaveLength(7);
    sent.length = 0;
    docs.sync('w1', 'crlf', { version: 2, text: DOC.join('\r\n') });
    expect((await docs.idle('w1', 'crlf')).check.entries).toHaveLength(7);
    expect(sent).toEqual([]);
    // A trailing newline: one more (empty) line at the end; nothing checked changes.
    docs.sync('w1', 'crlf', { version: 3, text: `${DOC.join('\n')}\n` });
    expect((await docs.idle('w1', 'crlf')).check.entries).toHaveLength(7);
    consistent(docs, 'crlf', [...DOC, '']);
    await docs.close('w1', 'crlf');
  }, 120_000);

  it('a line changed above while lines are inserted below it: retracted from the change, re-checked, consistent', async () => {
    const { docs } = sessions();
    docs.sync('w1', 'ins', { version: 1, text: DOC.join('\n') });
    await docs.run('w1', 'ins', { kind: 'all' });
    // Lemma 1's statement is broken (line 2) and two comment lines are inserted at line 5.
    const edited = [...DOC];
    edited[1] = 'GOAL double_2 "double 2 = 5"';
    edited.splice(4, 0, '// a', '// b');
    docs.sync('w1', 'ins', { version: 2, text: edited.join('\n') });
    const after = await docs.idle('w1', 'ins');
    consistent(docs, 'ins', edited);
    // Line 3 (APPLY reflexivity) cannot prove double 2 = 5: nothing past line 2 may be checked.
    await docs.run('w1', 'ins', { kind: 'all' });
    const state = docs.get('w1', 'ins');
    expect(state?.check.error?.line).toBe(3);
    expect(state?.check.entries.map((e) => e.line)).toEqual([1, 2]);
    expect(after.version).toBe(2);
    await docs.close('w1', 'ins');
  }, 120_000);

  it('lines reordered (two proofs swapped), deleted at the end, and only appended: the checked region is always what Coq ran', async () => {
    const { docs } = sessions();
    const A = ['GOAL "1 = 1"', '    APPLY reflexivity', 'END'];
    const B = ['GOAL "2 = 2"', '    APPLY reflexivity', 'END'];
    docs.sync('w1', 'ord', { version: 1, text: [...A, ...B].join('\n') });
    await docs.run('w1', 'ord', { kind: 'all' });
    docs.sync('w1', 'ord', { version: 2, text: [...B, ...A].join('\n') });
    await docs.idle('w1', 'ord');
    consistent(docs, 'ord', [...B, ...A]);
    await docs.run('w1', 'ord', { kind: 'all' });
    expect(docs.get('w1', 'ord')?.check.entries).toHaveLength(6);
    // The last proof's END deleted.
    const cut = [...B, ...A].slice(0, 5);
    docs.sync('w1', 'ord', { version: 3, text: cut.join('\n') });
    await docs.idle('w1', 'ord');
    consistent(docs, 'ord', cut);
    expect(docs.get('w1', 'ord')?.check.entries.map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
    // Appended again: END checked on the same channel.
    const channel = docs.get('w1', 'ord')?.channel;
    docs.sync('w1', 'ord', { version: 4, text: [...cut, 'END'].join('\n') });
    const end = await docs.run('w1', 'ord', { kind: 'all' });
    expect(end.check.error).toBeUndefined();
    expect(end.check.entries).toHaveLength(6);
    expect(end.channel).toBe(channel);
    await docs.close('w1', 'ord');
  }, 120_000);

  it('a whole-text sync during a run-all that changes a line above the running one stops and re-checks consistently', async () => {
    const { docs } = sessions();
    const long = [...DOC, 'GOAL "forall n : nat, n + 0 = n"', '    APPLY (intros n; induction n; simpl; auto)', 'END'];
    docs.sync('w1', 'run', { version: 1, text: long.join('\n') });
    const running = docs.run('w1', 'run', { kind: 'all' });
    // Checked past lemma 1 (the run may be at any later line, or done on a fast machine).
    expect(await until(() => (docs.get('w1', 'run')?.check.entries.length ?? 0) >= 4, 60_000)).toBe(true);
    // The whole text, lemma 1 changed (its proof now fails): everything from line 3 is retracted.
    const edited = [...long];
    edited[2] = '    APPLY (exact I)';
    docs.sync('w1', 'run', { version: 2, text: edited.join('\n') });
    await running;
    await docs.idle('w1', 'run');
    await until(() => docs.get('w1', 'run')?.check.running === undefined && docs.get('w1', 'run')?.check.error !== undefined, 60_000);
    await docs.idle('w1', 'run');
    consistent(docs, 'run', edited);
    const state = docs.get('w1', 'run');
    expect(state?.check.entries.map((e) => e.line)).toEqual([1, 2]);
    expect(state?.check.error?.line).toBe(3);
    await docs.close('w1', 'run');
  }, 180_000);

  it('the same text under another path is checked again from line 1 with that path\'s prelude', async () => {
    const preludes: (string | undefined)[] = [];
    const { docs } = sessions(async (path) => {
      const p = path === '/b/x.arbor' ? 'Require Import Lia.' : undefined;
      preludes.push(p);
      return p;
    });
    const text = ['GOAL "forall n : nat, n < n + 1"', '    APPLY lia', 'END'];
    docs.sync('w1', 'mv', { version: 1, text: text.join('\n'), path: '/a/x.arbor' });
    const a = await docs.run('w1', 'mv', { kind: 'all' });
    docs.sync('w1', 'mv', { version: 2, text: text.join('\n'), path: '/b/x.arbor' });
    await docs.idle('w1', 'mv');
    const b = await docs.run('w1', 'mv', { kind: 'all' });
    expect(b.channel).not.toBe(a.channel);
    expect(preludes.at(-1)).toBe('Require Import Lia.');
    expect(b.check.entries).toHaveLength(3);
    await docs.close('w1', 'mv');
  }, 120_000);

  // The commit's rule is "a changed path: everything re-checked (another project's prelude may apply)", but it
  // is applied only to a sync without its edit: a sync that carries an edit and a new path (the renderer
  // always sends the tab's path) keeps every line above the edit, checked under the old project's prelude.
  // A user's path to it: Save As into another project's folder (saveTo patches the tab's path, no sync), then
  // one keystroke. document-sessions.ts sync: `params.edit ?? (moved ? … : changedLines(…))` — the edit wins.
  it('a new path arriving with an edit re-checks from line 1 under the new path\'s prelude', async () => {
    const { docs } = sessions(async (path) => (path === '/b/x.arbor' ? 'Definition k := 2.' : 'Definition k := 1.'));
    const text = ['GOAL "k = 1"', '    APPLY reflexivity', 'END'];
    docs.sync('w1', 'mvedit', { version: 1, text: text.join('\n'), path: '/a/x.arbor' });
    const a = await docs.run('w1', 'mvedit', { kind: 'all' });
    expect(a.check.entries).toHaveLength(3);
    // Moved to project b (k is 2 there) and a comment typed at the end, in the same sync.
    const moved = [...text, '// moved'];
    docs.sync('w1', 'mvedit', { version: 2, text: moved.join('\n'), path: '/b/x.arbor', edit: { firstLine: 4, lineDelta: 1 } });
    await docs.idle('w1', 'mvedit');
    const b = await docs.run('w1', 'mvedit', { kind: 'all' });
    // Under b's prelude `k = 1` is false: nothing of that proof may be shown as checked.
    expect(b.check.entries.map((e) => e.line)).toEqual([1]);
    expect(b.check.error?.line).toBe(2);
    await docs.close('w1', 'mvedit');
  }, 120_000);

  // Defect: the document's channel is opened (its engine never starts a prover), then its line 1 `PRELUDE bare`
  // makes the shell build a new engine that boots; closing the tab CANCELs the channel, which disposes the old
  // engine only — the PRELUDE's prover runs on with no channel (same cause as lazy-channel-attack.test.ts).
  it('a document whose first line is PRELUDE bare starts one prover; closing the tab while it boots leaves none', async () => {
    const before = provers();
    const { docs } = sessions();
    docs.sync('w1', 'boot', { version: 1, text: ['PRELUDE bare', 'GOAL "forall b : bool, negb (negb b) = b"', '    APPLY (intros b; destruct b; reflexivity)', 'END'].join('\n') });
    const run = docs.run('w1', 'boot', { kind: 'all' });
    expect(await until(() => provers().some((p) => !before.includes(p)), 30_000)).toBe(true);
    await docs.close('w1', 'boot');
    await run;
    const gone = await until(() => provers().filter((p) => !before.includes(p)).length === 0, 20_000);
    expect(gone, `still running: ${provers().filter((p) => !before.includes(p)).join(', ')}`).toBe(true);
  }, 120_000);

  it('a project prelude refused on a never-started channel: a clear error, no channel left, and the next run works once fixed', async () => {
    let prelude = 'Axiom cheat : False.';
    const { docs, messages } = sessions(async () => prelude);
    const before = shell.channelIds();
    docs.sync('w1', 'refused', { version: 1, text: ['GOAL "1 = 1"', '    APPLY reflexivity', 'END'].join('\n') });
    const r = await docs.run('w1', 'refused', { kind: 'all' });
    expect(r.check.entries).toEqual([]);
    expect(messages().join('\n')).toMatch(/prelude was refused/);
    expect(shell.channelIds()).toEqual(before);
    prelude = 'Require Import Lia.';
    const ok = await docs.run('w1', 'refused', { kind: 'all' });
    expect(ok.check.entries).toHaveLength(3);
    await docs.close('w1', 'refused');
  }, 120_000);
});
