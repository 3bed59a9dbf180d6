import type { StateCreator } from 'zustand';
import type { TranscriptEntry } from '../../shared/transcript/parse-transcript.ts';
import type { ReplayFilter } from '../../shared/transcript/transcript-replay.ts';
import type { ArborState } from './store.ts';

const LIVE_LIMIT = 5000;

export interface TranscriptSlice {
  transcript: {
    /** What the host's shell did in this session (request and response events). */
    live: TranscriptEntry[];
    /** A `--transcript` file opened for stepping through, without a prover. */
    loaded: { name: string; entries: TranscriptEntry[]; cursor: number; problems: number; filter?: ReplayFilter } | null;
  };
  appendLive(entry: TranscriptEntry): void;
  loadTranscript(name: string, entries: TranscriptEntry[], problems: number): void;
  closeTranscript(): void;
  setTranscriptCursor(cursor: number): void;
  /** Which of the loaded transcript's requests the replay stops at (failures only, one channel). */
  setTranscriptFilter(filter: ReplayFilter): void;
}

export const createTranscriptSlice: StateCreator<ArborState, [], [], TranscriptSlice> = (set) => ({
  transcript: { live: [], loaded: null },
  appendLive: (entry) => set((s) => {
    const live = s.transcript.live.length >= LIVE_LIMIT ? s.transcript.live.slice(-LIVE_LIMIT + 1) : s.transcript.live.slice();
    live.push(entry);
    return { transcript: { ...s.transcript, live } };
  }),
  loadTranscript: (name, entries, problems) => set((s) => ({ transcript: { ...s.transcript, loaded: { name, entries, cursor: 0, problems } } })),
  closeTranscript: () => set((s) => ({ transcript: { ...s.transcript, loaded: null } })),
  setTranscriptCursor: (cursor) => set((s) => {
    const loaded = s.transcript.loaded;
    if (!loaded) return {};
    return { transcript: { ...s.transcript, loaded: { ...loaded, cursor: Math.max(0, Math.min(loaded.entries.length - 1, cursor)) } } };
  }),
  setTranscriptFilter: (filter) => set((s) => (s.transcript.loaded ? { transcript: { ...s.transcript, loaded: { ...s.transcript.loaded, filter } } } : {})),
});

export const selectLiveTranscript = (s: ArborState): TranscriptEntry[] => s.transcript.live;
export const selectLoadedTranscript = (s: ArborState) => s.transcript.loaded;
