import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentState } from '../../shared/checking/document-check.ts';
import { applyDocumentPatch } from '../../shared/checking/document-patch.ts';
import { firstStaleLine } from '../../shared/checking/checked-lines.ts';
import { Shell } from '../shell/shell.ts';
import { forksOf } from '../shell/state-forks.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { DocumentSessions } from './document-sessions.ts';
import type { DocumentEvent } from './document-sessions.ts';

/**
 * Attacks on documents and their events as patches (real coqidetop): whatever the user does — rapid edits
 * during a run-all, two windows on one document, closing during a check — a client that applies the host's
 * patches in order holds exactly the host's state, and nothing is sent for a closed document.
 */
let factory: EngineFactory;
let shell: Shell;

beforeAll(async () => {
  factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  shell = new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude) });
}, 60_000);

afterAll(async () => {
  await shell.close();
  await factory.dispose();
});

/** The host, and per (client, uri) the state a client gets by applying every patch in turn. */
function host() {
  const events: DocumentEvent[] = [];
  const clients = new Map<string, DocumentState | undefined>();
  const refused: string[] = [];
  const docs = new DocumentSessions({
    shell,
    emit: (e) => {
      events.push(e);
      if (e.kind !== 'document') return;
      const key = `${e.patch.client} ${e.patch.uri}`;
      const next = applyDocumentPatch(clients.get(key), e.patch);
      if (!next) refused.push(`${key} seq ${e.patch.seq}`);
      clients.set(key, next);
    },
    recheckDelayMs: 20,
    fork: (channel, step) => forksOf(shell).fork(channel, step),
  });
  return { docs, events, refused, client: (c: string, uri: string) => clients.get(`${c} ${uri}`) };
}

const lemma = (i: number): string[] => [`GOAL l${i} "forall n : nat, n + ${i} = ${i} + n"`, '    APPLY intro n', '    APPLY lia', 'END'];
const text = (n: number): string => Array.from({ length: n }, (_, i) => lemma(i)).flat().join('\n');

describe('document patches against the host (real coqidetop)', () => {
  it('rapid edits during a run-all: the client\'s state is the host\'s, and the checked lines are the text\'s', async () => {
    const { docs, refused, client } = host();
    const lines = text(6).split('\n');
    docs.sync('w', 'doc', { version: 1, text: lines.join('\n') });
    const all = docs.run('w', 'doc', { kind: 'all' });
    // Edits while it runs: above the running line, below it, a line removed and one inserted.
    for (let v = 2; v <= 8; v++) {
      const at = (v * 5) % lines.length;
      // A changed tactic where there is one, else an inserted comment line (both keep the proofs valid).
      const changed = (lines[at] as string).includes('APPLY lia');
      if (changed) lines[at] = (lines[at] as string).replace('APPLY lia', v % 2 === 0 ? 'APPLY (lia)' : 'APPLY ((lia))');
      else lines.splice(at, 0, `// edit ${v}`);
      docs.sync('w', 'doc', { version: v, text: lines.join('\n'), edit: { firstLine: at + 1, lineDelta: changed ? 0 : 1 } });
      // Half the edits come before the previous one was dealt with.
      if (v % 2 === 0) await docs.idle('w', 'doc').catch(() => undefined);
    }
    await all.catch(() => undefined);
    await docs.run('w', 'doc', { kind: 'all' });
    await docs.idle('w', 'doc');
    const state = docs.get('w', 'doc') as DocumentState;
    expect(refused).toEqual([]);
    expect(client('w', 'doc')).toEqual(state);
    expect(firstStaleLine(state.check.entries, lines)).toBeUndefined();
    expect(state.check.error).toBeUndefined();
    expect(state.check.entries.at(-1)?.line).toBe(lines.length);
    expect(state.check.entries.length).toBe(lines.filter((l) => !l.startsWith('//')).length);
    await docs.close('w', 'doc');
  }, 600_000);

  it('two windows on one document: two sessions, each client gets its own patches only', async () => {
    const { docs, refused, client, events } = host();
    docs.sync('a', 'same', { version: 1, text: text(2) });
    docs.sync('b', 'same', { version: 1, text: text(1) });
    await Promise.all([docs.run('a', 'same', { kind: 'all' }), docs.run('b', 'same', { kind: 'through', line: 2 })]);
    const [a, b] = [docs.get('a', 'same') as DocumentState, docs.get('b', 'same') as DocumentState];
    expect(a.session).not.toBe(b.session);
    expect(a.channel).not.toBe(b.channel);
    expect(a.check.entries).toHaveLength(8);
    expect(b.check.entries).toHaveLength(2);
    expect(refused).toEqual([]);
    expect(client('a', 'same')).toEqual(a);
    expect(client('b', 'same')).toEqual(b);
    // Every patch names one client, and its seq counts that client's session alone.
    const seqs = (c: string): number[] => events.flatMap((e) => (e.kind === 'document' && e.patch.client === c ? [e.patch.seq] : []));
    expect(seqs('a')).toEqual(Array.from({ length: seqs('a').length }, (_, i) => i + 1));
    expect(seqs('b')).toEqual(Array.from({ length: seqs('b').length }, (_, i) => i + 1));
    await docs.closeClient('a');
    await docs.closeClient('b');
  }, 600_000);

  it('close during a check: the run settles, nothing is sent after, the channel and its forks are released, a fork is refused', async () => {
    const { docs, events } = host();
    docs.sync('w', 'c', { version: 1, text: text(4) });
    await docs.run('w', 'c', { kind: 'through', line: 3 });
    const fork = await docs.fork('w', 'c');
    const channel = docs.get('w', 'c')?.channel as number;
    expect(shell.channelIds()).toEqual(expect.arrayContaining([channel, fork.channel]));
    const run = docs.run('w', 'c', { kind: 'all' });
    // Close once the run is under way (the next line is running).
    await expect.poll(() => docs.get('w', 'c')?.check.running !== undefined, { timeout: 60_000, interval: 10 }).toBe(true);
    const before = events.length;
    await docs.close('w', 'c');
    await run.catch(() => undefined);
    const after = events.slice(before).filter((e) => e.kind === 'document');
    expect(after).toEqual([]);
    expect(shell.channelIds()).not.toContain(channel);
    expect(shell.channelIds()).not.toContain(fork.channel);
    await expect(docs.fork('w', 'c')).rejects.toThrow(/no such document/);
    expect(docs.get('w', 'c')).toBeUndefined();
  }, 600_000);

  it('an older version arriving late never replaces the newer text', async () => {
    const { docs } = host();
    docs.sync('w', 'v', { version: 5, text: text(1) });
    await docs.run('w', 'v', { kind: 'all' });
    const state = docs.get('w', 'v') as DocumentState;
    docs.sync('w', 'v', { version: 3, text: 'GOAL "False"' });
    await docs.idle('w', 'v');
    expect(docs.get('w', 'v')).toEqual(state);
    await docs.close('w', 'v');
  }, 300_000);

  it('a run asked right after an edit is checked through its line: the edit\'s re-check, due meanwhile, stops nothing', async () => {
    const { docs } = host();
    const lines = text(3).split('\n');
    docs.sync('w', 'recheck', { version: 1, text: lines.join('\n') });
    await docs.run('w', 'recheck', { kind: 'through', line: 4 });
    // The edit schedules a re-check through line 4 (20 ms later: inside the run below, each line takes longer).
    lines[1] = '    APPLY (intro n)';
    docs.sync('w', 'recheck', { version: 2, text: lines.join('\n'), edit: { firstLine: 2, lineDelta: 0 } });
    const after = await docs.run('w', 'recheck', { kind: 'through', line: 12 });
    expect(after.check.entries.map((e) => e.line)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(after.check.error).toBeUndefined();
    await docs.close('w', 'recheck');
  }, 120_000);

  it('typing below the running line (a note at the end) does not stop a run-all: it reaches the new end', async () => {
    const { docs, events } = host();
    const lines = text(4).split('\n');
    docs.sync('w', 'below', { version: 1, text: lines.join('\n') });
    const all = docs.run('w', 'below', { kind: 'all' });
    // Wait (on the host's own events) until line 3 runs, then append a line at the end, far below it.
    const runningAt = (): number | undefined => docs.get('w', 'below')?.check.running?.line;
    await new Promise<void>((resolve) => {
      const poll = (): void => ((runningAt() ?? 0) >= 3 ? resolve() : void setImmediate(poll));
      poll();
    });
    expect(events.length).toBeGreaterThan(0);
    lines.push('    // a note typed at the end while checking');
    docs.sync('w', 'below', { version: 2, text: lines.join('\n'), edit: { firstLine: lines.length, lineDelta: 1 } });
    const state = await all;
    await docs.idle('w', 'below');
    const final = docs.get('w', 'below') as DocumentState;
    expect(final.check.error).toBeUndefined();
    expect(final.check.entries.at(-1)?.line).toBe(16);
    expect(state.check.entries.length).toBeGreaterThan(0);
    await docs.close('w', 'below');
  }, 300_000);

  it('typing below the replayed line while a restart replays: the checked lines come back, none stale', async () => {
    const { docs } = host();
    const lines = text(4).split('\n');
    docs.sync('w', 'replay', { version: 1, text: lines.join('\n') });
    await docs.run('w', 'replay', { kind: 'all' });
    expect(docs.get('w', 'replay')?.check.entries.length).toBe(16);
    // The channels panel's Restart: a new prover, the 16 checked lines replayed on it.
    const restarted = docs.restartProver('w', 'replay');
    await new Promise<void>((resolve) => {
      const poll = (): void => ((docs.get('w', 'replay')?.check.running?.line ?? 0) >= 3 ? resolve() : void setImmediate(poll));
      poll();
    });
    lines[13] = (lines[13] as string).replace('APPLY lia', 'APPLY (lia)');
    docs.sync('w', 'replay', { version: 2, text: lines.join('\n'), edit: { firstLine: 14, lineDelta: 0 } });
    await restarted;
    await docs.idle('w', 'replay');
    const final = docs.get('w', 'replay') as DocumentState;
    expect(firstStaleLine(final.check.entries, lines)).toBeUndefined();
    expect(final.check.error).toBeUndefined();
    expect(final.check.entries.map((e) => e.line)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    await docs.close('w', 'replay');
  }, 300_000);
});
