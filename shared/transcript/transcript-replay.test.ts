import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { parseTranscript } from './parse-transcript.ts';
import type { TranscriptEntry } from './parse-transcript.ts';
import { derivationAtStop, filterStops, replayStops } from './transcript-replay.ts';

/** A real arbor-mcp session on Coq with failures (fixtures/transcripts/README.md). */
const entries = parseTranscript(readFileSync(join(import.meta.dirname, '../../fixtures/transcripts/agent-failures.jsonl'), 'utf8')).entries;
const all = (t: TreeView | null): TreeView[] => (t ? [t, ...(t.children ?? []).flatMap(all)] : []);

describe('replaying an agent transcript as a debugger shows it', () => {
  it('stops at every request, failures included, each paired with its response', () => {
    const requests = entries.filter((e) => e.kind === 'request').length;
    const stops = replayStops(entries);
    expect(stops).toHaveLength(requests);
    expect(stops.filter((s) => s.err !== '').length).toBe(3);
    expect(stops[2]).toMatchObject({ command: 'APPLY (rewrite Nat.mul_comm)', err: expect.stringContaining('no subterm') });
    expect(filterStops(stops, { failuresOnly: true }).every((s) => s.err !== '')).toBe(true);
    expect(filterStops(stops, { channel: 5 })).toHaveLength(0);
  });

  it('pairs a piped transcript (all requests, then all responses) the same way', () => {
    const piped: TranscriptEntry[] = [...entries.filter((e) => e.kind === 'request'), ...entries.filter((e) => e.kind === 'response')];
    expect(replayStops(piped).map((s) => [s.command, s.err])).toEqual(replayStops(entries).map((s) => [s.command, s.err]));
  });

  it('draws a failure red under the goal it was tried on, with its error, and keeps it there', () => {
    const stops = replayStops(entries);
    const atFailure = all(derivationAtStop(entries, stops[2]!));
    const failed = atFailure.filter((n) => n.attempt?.kind === 'failed');
    expect(failed.map((n) => n.action)).toEqual(['APPLY (rewrite Nat.mul_comm)']);
    expect(failed[0]?.attempt?.error).toMatch(/no subterm/);
    // Still there once the proof went on, with the later failures.
    const later = all(derivationAtStop(entries, stops[8]!)).filter((n) => n.attempt?.kind === 'failed').map((n) => n.action);
    expect(later).toEqual(['APPLY (rewrite Nat.mul_comm)', 'APPLY lia_does_not_exist', 'APPLY (simpl; rewrite <- IHn)']);
  });

  it('marks the proof dropped before END, and keeps a REVERTed branch as an abandoned one', () => {
    const stops = replayStops(entries);
    expect(stops.filter((s) => s.abandoned).map((s) => s.command)).toEqual([
      'GOAL "forall l : list nat, rev (rev l) = l"', 'APPLY intros l', 'APPLY induction l as [|x l IH]', 'APPLY reflexivity',
    ]);
    const revert = stops.findIndex((s) => /^REVERT/.test(s.command));
    const nodes = all(derivationAtStop(entries, stops[revert]!));
    expect(nodes.some((n) => n.attempt?.kind === 'reverted' && !n.attempt.inside)).toBe(true);
  });
});
