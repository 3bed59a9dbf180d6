import type { StateCreator } from 'zustand';
import type { DocumentCheck } from '../../shared/checking/document-check.ts';
import type { ArborState } from './store.ts';

export type { DocumentCheck };

const EMPTY: DocumentCheck = { entries: [] };

export interface CheckingSlice {
  checking: Record<string, DocumentCheck>;
  setCheck(uri: string, patch: Partial<DocumentCheck>): void;
  /** The whole state, as the host sent it. */
  putCheck(uri: string, check: DocumentCheck): void;
  clearCheck(uri: string): void;
}

export const createCheckingSlice: StateCreator<ArborState, [], [], CheckingSlice> = (set) => ({
  checking: {},
  setCheck: (uri, patch) => set((s) => {
    const next: DocumentCheck = { ...(s.checking[uri] ?? EMPTY), ...patch };
    // `undefined` in a patch clears the key (exactOptionalPropertyTypes is off: be explicit).
    for (const k of Object.keys(patch) as (keyof DocumentCheck)[]) if (patch[k] === undefined) delete next[k];
    return { checking: { ...s.checking, [uri]: next } };
  }),
  putCheck: (uri, check) => set((s) => ({ checking: { ...s.checking, [uri]: check } })),
  clearCheck: (uri) => set((s) => ({ checking: { ...s.checking, [uri]: EMPTY } })),
});

export const selectCheck = (uri: string | null) => (s: ArborState): DocumentCheck => (uri ? s.checking[uri] ?? EMPTY : EMPTY);
export const selectActiveCheck = (s: ArborState): DocumentCheck =>
  s.documents.activeUri ? s.checking[s.documents.activeUri] ?? EMPTY : EMPTY;
/** The editor line that produced `step` on the active document (for highlighting a node's origin). */
export const lineOfStep = (check: DocumentCheck, step: number): number | undefined =>
  check.entries.find((e) => e.stepBefore < step && e.stepAfter >= step)?.line;
