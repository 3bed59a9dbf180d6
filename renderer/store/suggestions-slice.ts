import type { StateCreator } from 'zustand';
import type { EditRecord, Suggestion } from '../../shared/agent/agent-types.ts';
import type { AgentSnapshot, McpInfo } from '../../shared/api/api-contract.ts';
import type { ArborState } from './store.ts';

/**
 * The agent session of the active document's channel as the suggestion panel shows it: the queue
 * (from MCP agents and built-in sources, labelled by the prover), the edit history, and panel state.
 * Events from other channels' sessions are ignored; focusing a document replaces the snapshot.
 */
export interface SuggestionsSlice {
  suggestions: {
    channel: number | null;
    list: Suggestion[];
    history: EditRecord[];
    showInvalid: boolean;
    /** A built-in source run is in progress. */
    suggesting: boolean;
    /** Suggestions being accepted (their lines written and checked). */
    busy: number[];
    mcp: McpInfo;
  };
  /** The focused channel's session (null: the active document has no channel yet). */
  setAgentSnapshot(snapshot: AgentSnapshot | null): void;
  receiveSuggestion(channel: number, suggestion: Suggestion): void;
  receiveEdit(channel: number, record: EditRecord): void;
  setShowInvalid(show: boolean): void;
  setSuggesting(running: boolean): void;
  setSuggestionBusy(id: number, busy: boolean): void;
  setMcpInfo(info: McpInfo): void;
}

export const createSuggestionsSlice: StateCreator<ArborState, [], [], SuggestionsSlice> = (set) => ({
  suggestions: { channel: null, list: [], history: [], showInvalid: false, suggesting: false, busy: [], mcp: null },
  setAgentSnapshot: (snap) => set((s) => ({ suggestions: { ...s.suggestions, channel: snap?.channel ?? null, list: snap?.suggestions ?? [], history: snap?.history ?? [] } })),
  receiveSuggestion: (channel, suggestion) => set((s) => {
    if (s.suggestions.channel !== channel) return {};
    const has = s.suggestions.list.some((x) => x.id === suggestion.id);
    const list = has ? s.suggestions.list.map((x) => (x.id === suggestion.id ? suggestion : x)) : [...s.suggestions.list, suggestion];
    return { suggestions: { ...s.suggestions, list } };
  }),
  receiveEdit: (channel, record) => set((s) => (s.suggestions.channel !== channel ? {} : { suggestions: { ...s.suggestions, history: [...s.suggestions.history, record] } })),
  setShowInvalid: (showInvalid) => set((s) => ({ suggestions: { ...s.suggestions, showInvalid } })),
  setSuggesting: (suggesting) => set((s) => ({ suggestions: { ...s.suggestions, suggesting } })),
  setSuggestionBusy: (id, busy) => set((s) => ({
    suggestions: { ...s.suggestions, busy: busy ? [...s.suggestions.busy, id] : s.suggestions.busy.filter((x) => x !== id) },
  })),
  setMcpInfo: (mcp) => set((s) => ({ suggestions: { ...s.suggestions, mcp } })),
});

const isShown = (showInvalid: boolean) => (x: Suggestion): boolean => x.status === 'pending' && (showInvalid || x.label !== 'invalid');

/** Every suggestion of the session (for tests and counts). */
export const selectSuggestions = (s: ArborState): Suggestion[] => s.suggestions.list;
// Memoised on the list and the toggle: a selector must return the same array for the same state.
let shownMemo: { list: Suggestion[]; showInvalid: boolean; shown: Suggestion[] } | undefined;
/** Pending suggestions the panel lists: invalid ones only when asked. */
export const selectShownSuggestions = (s: ArborState): Suggestion[] => {
  const { list, showInvalid } = s.suggestions;
  if (shownMemo?.list !== list || shownMemo.showInvalid !== showInvalid) shownMemo = { list, showInvalid, shown: list.filter(isShown(showInvalid)) };
  return shownMemo.shown;
};
export const selectHiddenInvalidCount = (s: ArborState): number =>
  s.suggestions.showInvalid ? 0 : s.suggestions.list.filter((x) => x.status === 'pending' && x.label === 'invalid').length;
export const selectPendingSuggestions = (s: ArborState): number => s.suggestions.list.filter(isShown(false)).length;
export const selectEditHistory = (s: ArborState): EditRecord[] => s.suggestions.history;
export const selectShowInvalid = (s: ArborState): boolean => s.suggestions.showInvalid;
export const selectSuggesting = (s: ArborState): boolean => s.suggestions.suggesting;
export const selectSuggestionBusy = (s: ArborState): number[] => s.suggestions.busy;
export const selectMcpInfo = (s: ArborState): McpInfo => s.suggestions.mcp;
