import { create } from 'zustand';
import type { ChannelsSlice } from './channels-slice.ts';
import { createChannelsSlice } from './channels-slice.ts';
import type { CheckingSlice } from './checking-slice.ts';
import { createCheckingSlice } from './checking-slice.ts';
import type { CursorSlice } from './cursor-slice.ts';
import { createCursorSlice } from './cursor-slice.ts';
import type { DocumentsSlice } from './documents-slice.ts';
import { createDocumentsSlice } from './documents-slice.ts';
import type { FidelitySlice } from './fidelity-slice.ts';
import { createFidelitySlice } from './fidelity-slice.ts';
import type { MessagesSlice } from './messages-slice.ts';
import { createMessagesSlice } from './messages-slice.ts';
import type { ProblemsSlice } from './problems-slice.ts';
import { createProblemsSlice } from './problems-slice.ts';
import type { ProofSlice } from './proof-slice.ts';
import { createProofSlice } from './proof-slice.ts';
import type { SuggestionsSlice } from './suggestions-slice.ts';
import { createSuggestionsSlice } from './suggestions-slice.ts';
import type { TranscriptSlice } from './transcript-slice.ts';
import { createTranscriptSlice } from './transcript-slice.ts';
import type { UiSlice } from './ui-slice.ts';
import type { VFileSlice } from './vfile-slice.ts';
import { createVFileSlice } from './vfile-slice.ts';
import { createUiSlice } from './ui-slice.ts';

export type ArborState = DocumentsSlice & CheckingSlice & ProofSlice & ChannelsSlice & TranscriptSlice & MessagesSlice & SuggestionsSlice & UiSlice & FidelitySlice & CursorSlice & ProblemsSlice & VFileSlice;

/** The one store, made of slices; components read it through the slices' module-level selectors. */
export const createArborStore = () => create<ArborState>()((...a) => ({
  ...createDocumentsSlice(...a),
  ...createCheckingSlice(...a),
  ...createProofSlice(...a),
  ...createChannelsSlice(...a),
  ...createTranscriptSlice(...a),
  ...createMessagesSlice(...a),
  ...createSuggestionsSlice(...a),
  ...createUiSlice(...a),
  ...createFidelitySlice(...a),
  ...createCursorSlice(...a),
  ...createProblemsSlice(...a),
  ...createVFileSlice(...a),
}));

export const useArbor = createArborStore();
