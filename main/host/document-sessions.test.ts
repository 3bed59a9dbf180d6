import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { AgentSession } from '../agent/agent-session.ts';
import { inProcessPort } from '../agent/in-process-port.ts';
import { Shell } from '../shell/shell.ts';
import { forksOf } from '../shell/state-forks.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { DocumentSessions } from './document-sessions.ts';
import type { DocumentEvent } from './document-sessions.ts';
import type { DocumentState } from '../../shared/checking/document-check.ts';
import { applyDocumentPatch } from '../../shared/checking/document-patch.ts';

/** The host's documents over the real shell and the real coqidetop: what the editor and agents rely on. */
let factory: EngineFactory;
let shell: Shell;
const sent: string[] = [];

beforeAll(async () => {
  factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  shell = new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude) });
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
  const docs = new DocumentSessions({
    shell,
    emit: (e) => events.push(e),
    recheckDelayMs: 50,
    // Forks are state handles on warm provers, as the host makes them (state-forks.ts).
    fork: (channel, step) => forksOf(shell).fork(channel, step),
    ...(prelude ? { prelude } : {}),
  });
  return { docs, events, messages: () => events.filter((e) => e.kind === 'document-message').map((e) => (e as { text: string }).text) };
}

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

describe('documents owned by the host (real coqidetop)', () => {
  it('checks a multi-item document to the end, each line with its steps', async () => {
    const { docs } = sessions();
    docs.sync('w1', 'a', { version: 1, text: DOC.join('\n') });
    const state = await docs.run('w1', 'a', { kind: 'all' });
    expect(state.check.error).toBeUndefined();
    expect(state.check.entries.map((e) => [e.line, e.stepBefore, e.stepAfter])).toEqual([[1, 0, 1], [2, 1, 2], [3, 2, 3], [4, 3, 4], [6, 4, 5], [7, 5, 6], [8, 6, 7]]);
    expect(state.channel).toBeDefined();
    await docs.close('w1', 'a');
  }, 120_000);

  it('sends each change of the checking state as a patch: at most the line just checked, applied in order giving the state', async () => {
    const { docs, events } = sessions();
    docs.sync('w1', 'p', { version: 1, text: DOC.join('\n') });
    const state = await docs.run('w1', 'p', { kind: 'all' });
    const patches = events.flatMap((e) => (e.kind === 'document' ? [e.patch] : []));
    expect(patches.map((p) => p.seq)).toEqual(patches.map((_, i) => i + 1));
    expect(Math.max(...patches.map((p) => p.append.length))).toBe(1);
    let client: DocumentState | undefined;
    for (const p of patches) client = applyDocumentPatch(client, p);
    expect(client).toEqual(state);
    await docs.close('w1', 'p');
  }, 120_000);

  it('a whole text sent without its edit keeps the checked lines above its first change (one REVERT, the same prover)', async () => {
    const { docs } = sessions();
    docs.sync('w1', 'whole', { version: 1, text: DOC.join('\n') });
    const first = await docs.run('w1', 'whole', { kind: 'all' });
    const channel = first.channel as number;
    sent.length = 0;
    // As a file reloaded from disk arrives: the whole text, no edit; lemma 2's proof changed.
    const edited = [...DOC];
    edited[6] = '    APPLY (rewrite double_2; simpl; reflexivity)';
    docs.sync('w1', 'whole', { version: 2, text: edited.join('\n') });
    const after = await docs.idle('w1', 'whole');
    expect(sent).toEqual([`${channel} REVERT 5`, `${channel} APPLY (rewrite double_2; simpl; reflexivity)`, `${channel} END`]);
    expect(after.channel).toBe(channel);
    expect(after.check.entries.map((e) => e.line)).toEqual([1, 2, 3, 4, 6, 7, 8]);
    // The same text again: nothing is sent, nothing is retracted.
    sent.length = 0;
    docs.sync('w1', 'whole', { version: 3, text: edited.join('\n') });
    expect((await docs.idle('w1', 'whole')).check.entries).toHaveLength(7);
    expect(sent).toEqual([]);
    // Lines added at the end: the checked lines stay and a run goes on from there.
    docs.sync('w1', 'whole', { version: 4, text: [...edited, 'GOAL "double 0 = 0"', '    APPLY reflexivity', 'END'].join('\n') });
    const more = await docs.run('w1', 'whole', { kind: 'all' });
    expect(sent).toEqual([`${channel} GOAL "double 0 = 0"`, `${channel} APPLY reflexivity`, `${channel} END`]);
    expect(more.check.entries.at(-1)).toMatchObject({ line: 11 });
    await docs.close('w1', 'whole');
  }, 120_000);

  it('an edit at line k re-sends only lines ≥ k (one REVERT), and re-checks as far as before', async () => {
    const { docs } = sessions();
    docs.sync('w1', 'b', { version: 1, text: DOC.join('\n') });
    const first = await docs.run('w1', 'b', { kind: 'all' });
    const channel = first.channel as number;
    sent.length = 0;
    const edited = [...DOC];
    edited[6] = '    APPLY (rewrite double_2;  reflexivity)';
    docs.sync('w1', 'b', { version: 2, text: edited.join('\n'), edit: { firstLine: 7, lineDelta: 0 } });
    const after = await docs.idle('w1', 'b');
    expect(sent).toEqual([`${channel} REVERT 5`, `${channel} APPLY (rewrite double_2;  reflexivity)`, `${channel} END`]);
    expect(after.check.entries.at(-1)).toMatchObject({ line: 8, stepAfter: 7 });
    // Changing the line back re-checks it again, to the end.
    sent.length = 0;
    docs.sync('w1', 'b', { version: 3, text: DOC.join('\n'), edit: { firstLine: 7, lineDelta: 0 } });
    expect((await docs.idle('w1', 'b')).check.entries.at(-1)).toMatchObject({ line: 8 });
    expect(sent).toHaveLength(3);
    // An edit above the first proof re-sends from there: the document's own declarations come back.
    sent.length = 0;
    docs.sync('w1', 'b', { version: 4, text: DOC.join('\n').replace('n + n', 'n * 2'), edit: { firstLine: 1, lineDelta: 0 } });
    const again = await docs.idle('w1', 'b');
    expect(again.check.error).toBeUndefined();
    expect(again.check.entries.map((e) => e.line)).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(sent.filter((s) => !/NEW_CHANNEL|CANCEL/.test(s))).toHaveLength(7);
    await docs.close('w1', 'b');
  }, 120_000);

  it('an old version never replaces a newer text', async () => {
    const { docs } = sessions();
    docs.sync('w1', 'c', { version: 5, text: 'GOAL "True"' });
    docs.sync('w1', 'c', { version: 4, text: 'GOAL "False"', edit: { firstLine: 1, lineDelta: 0 } });
    const s = await docs.run('w1', 'c', { kind: 'all' });
    expect(s.version).toBe(5);
    expect(s.check.entries.map((e) => e.text)).toEqual(['GOAL "True"']);
    await docs.close('w1', 'c');
  }, 60_000);

  it('an edit above a running command stops it at once and resumes the run', async () => {
    const { docs, messages } = sessions();
    const text = ['GOAL "forall n : nat, n = n"', 'APPLY intro n', 'APPLY (do 1000000000 (try fail))'];
    docs.sync('w1', 'd', { version: 1, text: text.join('\n') });
    const running = docs.run('w1', 'd', { kind: 'all' });
    await expect.poll(() => docs.get('w1', 'd')?.check.running?.line, { timeout: 30_000 }).toBe(3);
    const before = docs.get('w1', 'd')?.channel;
    const edited = [...text];
    edited[1] = 'APPLY intros n';
    docs.sync('w1', 'd', { version: 2, text: edited.join('\n'), edit: { firstLine: 2, lineDelta: 0 } });
    await running;
    // Stopped without waiting for the tactic's 20 s limit: the first channel is gone, a new one checks.
    expect(messages().some((m) => m.startsWith('Edited at line 2, above the running line 3'))).toBe(true);
    await expect.poll(() => docs.get('w1', 'd')?.check.running?.line, { timeout: 30_000 }).toBe(3);
    expect(docs.get('w1', 'd')?.channel).not.toBe(before);
    expect(docs.get('w1', 'd')?.check.entries.map((e) => e.text)).toEqual(['GOAL "forall n : nat, n = n"', 'APPLY intros n']);
    await docs.cancel('w1', 'd');
    await docs.close('w1', 'd');
  }, 120_000);

  it('a failing line stops checking with its error; two clients never share a document', async () => {
    const { docs, messages } = sessions();
    docs.sync('w1', 'e', { version: 1, text: 'GOAL "1 = 2"\nAPPLY reflexivity\nEND' });
    docs.sync('w2', 'e', { version: 1, text: 'GOAL "2 = 2"\nAPPLY reflexivity\nEND' });
    const one = await docs.run('w1', 'e', { kind: 'all' });
    const two = await docs.run('w2', 'e', { kind: 'all' });
    expect(one.check.error).toMatchObject({ line: 2 });
    expect(one.check.entries.map((e) => e.line)).toEqual([1]);
    expect(two.check.error).toBeUndefined();
    expect(two.channel).not.toBe(one.channel);
    expect(messages().some((m) => /^line 2: /.test(m))).toBe(true);
    await docs.closeClient('w1');
    await docs.closeClient('w2');
    expect(docs.get('w1', 'e')).toBeUndefined();
  }, 120_000);

  it("a folder's project prelude reaches the new channel; a refused one opens no channel", async () => {
    const ok = sessions(async () => 'Definition seven := 7.');
    ok.docs.sync('w1', 'f', { version: 1, text: 'GOAL "seven = 7"\nAPPLY reflexivity', path: '/ws/sub/f.arbor' });
    expect((await ok.docs.run('w1', 'f', { kind: 'all' })).check.error).toBeUndefined();
    await ok.docs.close('w1', 'f');
    const refused = sessions(async () => {
      throw new Error('arbor.project.json asks for the lean backend, but this workbench runs coq');
    });
    refused.docs.sync('w1', 'g', { version: 1, text: 'GOAL "True"', path: '/ws/sub/g.arbor' });
    const s = await refused.docs.run('w1', 'g', { kind: 'all' });
    expect(s.channel).toBeUndefined();
    expect(refused.messages()).toEqual([expect.stringMatching(/asks for the lean backend/)]);
  }, 120_000);
  it("another client's commands on a document's channel become its lines; REVERT steps the checked region back", async () => {
    const { docs, events } = sessions();
    // The editor: holds the text, inserts what it is asked to after the given line, checks it, answers.
    let text = ['GOAL "forall l : list nat, l ++ [] = l"', '    APPLY intros l', '// the user\'s note'];
    let version = 1;
    docs.sync('w1', 'c', { version, text: text.join('\n') });
    const first = await docs.run('w1', 'c', { kind: 'all' });
    const channel = first.channel as number;
    const editor = async (e: DocumentEvent): Promise<void> => {
      if (e.kind !== 'document-insert') return;
      const line = e.afterLine + 1;
      text = [...text.slice(0, e.afterLine), `    ${e.text}`, ...text.slice(e.afterLine)];
      docs.sync('w1', 'c', { version: ++version, text: text.join('\n'), edit: { firstLine: line, lineDelta: 1 } });
      await docs.run('w1', 'c', { kind: 'through', line });
      docs.inserted('w1', 'c', e.id, { line });
    };
    const seen = events.length;
    const direct = (line: string): Promise<ShellResponse[]> => Promise.all(shell.submitLine(line));
    const pump = setInterval(() => {
      for (const e of events.splice(seen)) void editor(e);
    }, 5);
    try {
      const [done] = await docs.clientCommand(`${channel} APPLY (induction l; simpl; congruence)`, 'agent:test', direct);
      expect(done?.ERR).toBe('');
      expect(text).toEqual(['GOAL "forall l : list nat, l ++ [] = l"', '    APPLY intros l', '    APPLY (induction l; simpl; congruence)', '// the user\'s note']);
      const state = docs.get('w1', 'c');
      expect(state?.check.entries.map((e) => e.line)).toEqual([1, 2, 3]);
      expect(shell.engine(channel)?.treeView()).toMatchObject({ status: 'proved' });
      // Queries and other channels go straight to the shell: nothing is inserted.
      const [about] = await docs.clientCommand(`${channel} CHECK "app_nil_r"`, 'agent:test', direct);
      expect(about?.ERR).toBe('');
      expect(text).toHaveLength(4);
      // REVERT to the step after `intros`: the checked region ends at line 2 again; the text stays.
      const [reverted] = await docs.clientCommand(`${channel} REVERT ${state?.check.entries[1]?.stepAfter}`, 'agent:test', direct);
      expect(reverted?.ERR).toBe('');
      expect(docs.get('w1', 'c')?.check.entries.map((e) => e.line)).toEqual([1, 2]);
      expect(text).toHaveLength(4);
      const [bad] = await docs.clientCommand(`${channel} REVERT 999`, 'agent:test', direct);
      expect(bad?.ERR).toMatch(/no checked line of the document ends at step 999/);
    } finally {
      clearInterval(pump);
      await docs.close('w1', 'c');
    }
  }, 120_000);

  it('forks a scratch copy of the checked state; agents read the script from the document', async () => {
    const { docs } = sessions();
    const text = [
      'DEFINE "Definition double (n : nat) := n + n."',
      'GOAL double_2 "double 2 = 4"',
      '    APPLY reflexivity',
      'END',
      'GOAL "forall n, double n = n * 2"',
      '    APPLY intros n',
      '    APPLY (unfold double; lia)',
    ];
    docs.sync('w1', 'f', { version: 1, text: text.join('\n') });
    const state = await docs.run('w1', 'f', { kind: 'through', line: 6 });
    const channel = state.channel as number;
    expect(docs.scriptOf(channel)?.lines).toEqual(text.slice(0, 6).map((l) => l.trim()));
    expect(docs.scriptOf(channel + 1000)).toBeUndefined();

    // An agent session that starts now (its tracker saw nothing) still has the whole script: the document's.
    const agent = new AgentSession({ port: inProcessPort(shell), channel, documentScript: () => docs.scriptOf(channel) });
    try {
      expect(await agent.script('arbor')).toBe(`${text.slice(0, 6).map((l) => l.trim()).join('\n')}\n`);
      // Its try runs on a fork of the document's state: `double` is defined there, the document is untouched.
      const [tried] = await agent.tryCommands([['APPLY (unfold double; lia)']]);
      expect(tried?.label).toBe('closes_goal');
      expect(docs.get('w1', 'f')?.check.entries.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await agent.close();
    }

    // A fork through line 5: its own channel at the step after `GOAL`; what runs there leaves the document alone.
    const fork = await docs.fork('w1', 'f', 5);
    expect(fork).toMatchObject({ line: 5, step: 5 });
    expect(fork.channel).not.toBe(channel);
    const [onFork] = await Promise.all(shell.submitLine(`${fork.channel} APPLY (intro n; unfold double; lia)`));
    expect(onFork?.ERR).toBe('');
    expect(shell.engine(fork.channel)?.treeView()).toMatchObject({ status: 'proved' });
    expect(shell.engine(channel)?.treeView()).not.toMatchObject({ status: 'proved' });
    await expect(docs.fork('w1', 'f', 7)).rejects.toThrow(/line 7 is not checked \(the document is checked through line 6\)/);
    await expect(docs.releaseFork('w1', 'f', channel)).rejects.toThrow(/not a fork/);
    // The document owns its forks: closing it releases them.
    const second = await docs.fork('w1', 'f');
    expect(second.line).toBe(6);
    await docs.close('w1', 'f');
    await expect.poll(() => shell.channelIds().filter((c) => c === fork.channel || c === second.channel || c === channel), { timeout: 30_000 }).toEqual([]);
  }, 180_000);
});
