import { describe, expect, it } from 'vitest';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { selectActiveCheck, lineOfStep } from './checking-slice.ts';
import { selectActiveDocument } from './documents-slice.ts';
import { HISTORY_STEPS, selectChannelTrees, selectShownStep } from './proof-slice.ts';
import { createArborStore } from './store.ts';
import { selectEditHistory, selectHiddenInvalidCount, selectPendingSuggestions, selectShownSuggestions, selectSuggestions } from './suggestions-slice.ts';
import { selectOverlay, selectPreviousTree, selectShownTree, transcriptTreeAt } from './tree-selectors.ts';

const leaf = (id: number, step: number, goal: string): TreeView => ({ id, kind: 'leaf', status: 'open', step, ctxt: { vars: [], hyps: [] }, goal, current: 'goal' });

describe('store slices', () => {
  it('documents: add, patch, untitled names, close', () => {
    const store = createArborStore();
    const s = store.getState();
    const uri = s.nextUntitled();
    // Unique to this window: two windows' "Untitled 1" never share a recovery file.
    expect(uri).toMatch(/^untitled:[0-9a-f]{8}-1$/);
    s.addDocument({ uri, title: 'Untitled 1', dirty: false });
    store.getState().patchDocument(uri, { dirty: true, channel: 3 });
    expect(selectActiveDocument(store.getState())).toMatchObject({ dirty: true, channel: 3 });
    store.getState().closeDocument(uri);
    expect(store.getState().documents.activeUri).toBeNull();
  });

  it('proof: a revert drops later history; the slider shows old steps; diffs see the previous tree', () => {
    const store = createArborStore();
    store.getState().addDocument({ uri: 'u', title: 'u', dirty: false, channel: 1 });
    const { receiveTree } = store.getState();
    receiveTree(1, 1, leaf(0, 1, 'A'));
    receiveTree(1, 2, leaf(0, 2, 'B'));
    receiveTree(1, 3, leaf(0, 3, 'C'));
    expect(selectShownTree(store.getState())?.goal).toBe('C');
    expect(selectPreviousTree(store.getState())?.goal).toBe('B');
    store.getState().setHistoryStep(1);
    expect(selectShownTree(store.getState())?.goal).toBe('A');
    receiveTree(1, 2, leaf(0, 2, 'B2')); // REVERT 1 + a new step 2
    expect(Object.keys(selectChannelTrees(store.getState())?.byStep ?? {})).toEqual(['1', '2']);
    expect(selectShownStep(store.getState())).toBe(2);
    expect(selectShownTree(store.getState())?.goal).toBe('B2');
  });

  it('proof: history keeps only the latest HISTORY_STEPS trees, so step 2,000 costs what step 20 does', () => {
    const store = createArborStore();
    store.getState().addDocument({ uri: 'u', title: 'u', dirty: false, channel: 1 });
    const steps = HISTORY_STEPS + 50;
    for (let step = 1; step <= steps; step++) store.getState().receiveTree(1, step, leaf(0, step, `G${step}`));
    const kept = Object.keys(selectChannelTrees(store.getState())?.byStep ?? {}).map(Number);
    expect(kept).toHaveLength(HISTORY_STEPS);
    expect(Math.min(...kept)).toBe(steps - HISTORY_STEPS + 1);
    expect(Math.max(...kept)).toBe(steps);
    expect(selectPreviousTree(store.getState())?.goal).toBe(`G${steps - 1}`);
  });

  it('checking: overlay, error and the line of a step', () => {
    const store = createArborStore();
    store.getState().addDocument({ uri: 'u', title: 'u', dirty: false, channel: 1 });
    store.getState().setCheck('u', { entries: [{ line: 1, text: 'GOAL "A"', stepBefore: 0, stepAfter: 1 }, { line: 3, text: 'APPLY (a; b)', stepBefore: 1, stepAfter: 3 }] });
    expect(lineOfStep(selectActiveCheck(store.getState()), 2)).toBe(3);
    store.getState().setCheck('u', { running: { line: 4, since: 0 } });
    expect(selectOverlay(store.getState())).toBe('running');
    store.getState().setCheck('u', { running: undefined, error: { line: 4, message: 'fail' } });
    expect(selectOverlay(store.getState())).toBe('failed');
    expect('running' in selectActiveCheck(store.getState())).toBe(false);
  });

  it('transcript: steps through a loaded transcript without a prover', () => {
    const store = createArborStore();
    const state = { ctxt: { vars: [], hyps: [] }, goal: 'A' };
    store.getState().loadTranscript('t.jsonl', [
      { kind: 'request', time: 1, channel: 0, text: 'GOAL "A"' },
      { kind: 'response', time: 2, response: { CHANNEL: 0, RESPONSE: state, ERR: '', STEP: 1 } },
      { kind: 'request', time: 3, channel: 0, text: 'APPLY fail' },
      { kind: 'response', time: 4, response: { CHANNEL: 0, RESPONSE: null, ERR: 'fail', STEP: 1 } },
    ], 0);
    store.getState().setTreeSource('transcript');
    expect(selectShownTree(store.getState())).toBeNull();
    store.getState().setTranscriptCursor(3);
    expect(selectShownTree(store.getState())?.goal).toBe('A');
    store.getState().setTranscriptCursor(99);
    expect(store.getState().transcript.loaded?.cursor).toBe(3);
    expect(transcriptTreeAt(store.getState().transcript.loaded!.entries, 1)?.goal).toBe('A');
  });

  it('suggestions: snapshot, events of the focused channel only, invalid ones hidden until asked', () => {
    const store = createArborStore();
    const base = { from: 'agent:x', time: 1, apply: ['APPLY lia'], step: 2, status: 'pending' as const };
    const valid = { ...base, id: 1, edit: { kind: 'commands' as const, commands: ['APPLY lia'] }, label: 'closes_goal' as const };
    const invalid = { ...base, id: 2, edit: { kind: 'commands' as const, commands: ['APPLY foo'] }, label: 'invalid' as const, error: 'no' };
    store.getState().setAgentSnapshot({ channel: 3, suggestions: [valid], history: [] });
    store.getState().receiveSuggestion(3, invalid);
    store.getState().receiveSuggestion(4, { ...valid, id: 9 });
    expect(selectSuggestions(store.getState()).map((x) => x.id)).toEqual([1, 2]);
    expect(selectShownSuggestions(store.getState()).map((x) => x.id)).toEqual([1]);
    expect(selectHiddenInvalidCount(store.getState())).toBe(1);
    store.getState().setShowInvalid(true);
    expect(selectShownSuggestions(store.getState()).map((x) => x.id)).toEqual([1, 2]);
    store.getState().receiveSuggestion(3, { ...valid, status: 'rejected' });
    store.getState().receiveEdit(3, { lhs: 'current goal', rhs: 'APPLY lia', outcome: 'rejected', source: 'agent:x', time: 2 });
    expect(selectPendingSuggestions(store.getState())).toBe(0);
    expect(selectEditHistory(store.getState())).toHaveLength(1);
  });
});
