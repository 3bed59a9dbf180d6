import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { createArborStore } from '../store/store.ts';
import { Checker } from './checker.ts';

/** A stand-in for the host: channels count steps; `APPLY fail` fails; REVERT n goes back to n. */
function fakeHost() {
  const sent: string[] = [];
  const steps = new Map<number, number>([[0, 0]]);
  let nextChannel = 1;
  const submit = async (line: string): Promise<ShellResponse[]> => splitRequests(line).map((r) => r.text.trim()).map((req) => {
    sent.push(req);
    if (req === 'NEW_CHANNEL') {
      const id = nextChannel++;
      steps.set(id, 0);
      return { CHANNEL: 0, RESPONSE: { ID: id }, ERR: '' };
    }
    const m = /^(\d+) (.*)$/.exec(req);
    const ch = Number(m?.[1]);
    const cmd = m?.[2] ?? '';
    if (!steps.has(ch)) return { CHANNEL: ch, RESPONSE: null, ERR: 'bad channel' };
    if (cmd === 'RELEASE_CHANNEL' || cmd === 'CANCEL') {
      steps.delete(ch);
      return { CHANNEL: ch, RESPONSE: null, ERR: '' };
    }
    const revert = /^REVERT (\d+)$/.exec(cmd);
    if (revert) {
      steps.set(ch, Number(revert[1]));
      return { CHANNEL: ch, RESPONSE: {}, ERR: '', STEP: Number(revert[1]) };
    }
    if (cmd.includes('fail')) return { CHANNEL: ch, RESPONSE: null, ERR: 'fail' };
    const step = cmd.startsWith('GOAL') ? 1 : (steps.get(ch) ?? 0) + 1;
    steps.set(ch, step);
    return { CHANNEL: ch, RESPONSE: {}, ERR: '', STEP: step };
  });
  return { sent, submit };
}

function setup(text: string) {
  const store = createArborStore();
  const host = fakeHost();
  let lines = text.split('\n');
  const checker = new Checker({ store, submit: host.submit, lines: () => lines, recheckDelayMs: 5 });
  store.getState().addDocument({ uri: 'untitled:1', title: 'x', dirty: false });
  const setLines = (next: string): void => {
    lines = next.split('\n');
  };
  return { store, host, checker, setLines, entries: () => store.getState().checking['untitled:1']?.entries ?? [] };
}

const doc = ['GOAL "A"', '  HAVE h "B"', '  // a comment', '  END', '  APPLY t1', '  APPLY t2; APPLY t3', 'END'].join('\n');

describe('checker', () => {
  it('runs all lines on its own channel and records the steps of each line', async () => {
    const { host, checker, entries } = setup(doc);
    await checker.runAll('untitled:1');
    expect(host.sent).toEqual(['NEW_CHANNEL', '1 GOAL "A"', '1 HAVE h "B"', '1 END', '1 APPLY t1', '1 APPLY t2', '1 APPLY t3', '1 END']);
    expect(entries().map((e) => [e.line, e.stepBefore, e.stepAfter])).toEqual([[1, 0, 1], [2, 1, 2], [4, 2, 3], [5, 3, 4], [6, 4, 6], [7, 6, 7]]);
  });

  it('an edit of line k reverts to the step before k and re-sends only lines ≥ k', async () => {
    const { host, checker, setLines, entries, store } = setup(doc);
    await checker.runAll('untitled:1');
    host.sent.length = 0;
    setLines(doc.replace('APPLY t1', 'APPLY t1b'));
    await checker.edited('untitled:1', 5, 0);
    await new Promise((r) => setTimeout(r, 30));
    await checker.checkThrough('untitled:1', 0); // waits for the queued re-check
    await checker.runAll('untitled:1');
    expect(host.sent).toEqual(['1 REVERT 3', '1 APPLY t1b', '1 APPLY t2', '1 APPLY t3', '1 END']);
    expect(entries().at(-1)).toMatchObject({ line: 7, stepAfter: 7 });
    expect(store.getState().checking['untitled:1']?.error).toBeUndefined();
  });

  it('stops at a failing line, undoes its earlier requests and shows the error', async () => {
    const { host, checker, entries, store } = setup(doc.replace('APPLY t3', 'APPLY fail'));
    await checker.runAll('untitled:1');
    expect(entries().at(-1)?.line).toBe(5);
    expect(store.getState().checking['untitled:1']?.error).toEqual({ line: 6, message: 'fail' });
    expect(host.sent.slice(-3)).toEqual(['1 APPLY t2', '1 APPLY fail', '1 REVERT 4']);
  });

  it('steps back one line and runs to a line', async () => {
    const { host, checker, entries } = setup(doc);
    await checker.runTo('untitled:1', 4);
    expect(entries().map((e) => e.line)).toEqual([1, 2, 4]);
    await checker.stepBack('untitled:1');
    expect(entries().map((e) => e.line)).toEqual([1, 2]);
    expect(host.sent.at(-1)).toBe('1 REVERT 2');
    await checker.stepForward('untitled:1');
    expect(entries().map((e) => e.line)).toEqual([1, 2, 4]);
  });

  it('editing the GOAL line restarts on a fresh channel', async () => {
    const { host, checker, setLines, store } = setup(doc);
    await checker.runTo('untitled:1', 2);
    setLines(doc.replace('GOAL "A"', 'GOAL "A2"'));
    await checker.edited('untitled:1', 1, 0);
    expect(host.sent.slice(-2)).toEqual(['1 CANCEL', 'NEW_CHANNEL']);
    expect(store.getState().documents.docs['untitled:1']?.channel).toBe(2);
  });
});

describe('cancel', () => {
  it('cancels the channel of a running command (CANCEL, out of band), opens a new one and replays the checked lines', async () => {
    const store = createArborStore();
    const sent: string[] = [];
    let nextChannel = 1;
    const steps = new Map<number, number>();
    let release: (() => void) | undefined;
    const submit = async (line: string): Promise<ShellResponse[]> => {
      sent.push(line);
      if (line === 'NEW_CHANNEL') {
        steps.set(nextChannel, 0);
        return [{ CHANNEL: 0, RESPONSE: { ID: nextChannel++ }, ERR: '' }];
      }
      const [, ch, cmd] = /^(\d+) (.*)$/.exec(line) ?? [];
      const c = Number(ch);
      if (cmd === 'RELEASE_CHANNEL' || cmd === 'CANCEL') {
        steps.delete(c);
        release?.();
        return [{ CHANNEL: c, RESPONSE: null, ERR: '' }];
      }
      if (cmd === 'APPLY slow') {
        // Runs until the channel is released, then answers like the shell does for a killed prover.
        await new Promise<void>((r) => { release = r; });
        // A prover that finishes anyway must not count: the line was cancelled.
        return [{ CHANNEL: c, RESPONSE: {}, ERR: '', STEP: 3 }];
      }
      const step = (steps.get(c) ?? 0) + 1;
      steps.set(c, step);
      return [{ CHANNEL: c, RESPONSE: {}, ERR: '', STEP: step }];
    };
    const lines = ['GOAL "A"', 'APPLY a', 'APPLY slow', 'END'];
    const checker = new Checker({ store, submit, lines: () => lines });
    store.getState().addDocument({ uri: 'u', title: 'u', dirty: false });
    const run = checker.runAll('u');
    await new Promise((r) => setTimeout(r, 10));
    expect(store.getState().checking.u?.running?.line).toBe(3);
    await checker.cancel('u');
    await run;
    expect(sent).toEqual(['NEW_CHANNEL', '1 GOAL "A"', '1 APPLY a', '1 APPLY slow', '1 CANCEL', 'NEW_CHANNEL', '2 GOAL "A"', '2 APPLY a']);
    expect(store.getState().documents.docs.u?.channel).toBe(2);
    expect(store.getState().checking.u?.entries.map((e) => e.line)).toEqual([1, 2]);
    expect(store.getState().checking.u?.error).toBeUndefined();
    expect(store.getState().checking.u?.running).toBeUndefined();
  });
});
