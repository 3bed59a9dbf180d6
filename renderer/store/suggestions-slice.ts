import type { StateCreator } from 'zustand';
import type { ArborState } from './store.ts';

/**
 * Suggestions from an agent (seed 003: proposed hypothesis edits), accepted or rejected in the UI. The
 * agent side (MCP server) is not wired yet; the slice and panel are the placeholder it will fill.
 */
export interface Suggestion {
  id: string;
  source: string;
  /** The editor line the suggestion would change, and its proposed text. */
  line: number;
  text: string;
  rationale: string;
  state: 'pending' | 'accepted' | 'rejected';
}

export interface SuggestionsSlice {
  suggestions: { list: Suggestion[] };
  addSuggestion(s: Suggestion): void;
  resolveSuggestion(id: string, state: 'accepted' | 'rejected'): void;
}

export const createSuggestionsSlice: StateCreator<ArborState, [], [], SuggestionsSlice> = (set) => ({
  suggestions: { list: [] },
  addSuggestion: (suggestion) => set((s) => ({ suggestions: { list: [...s.suggestions.list, suggestion] } })),
  resolveSuggestion: (id, state) => set((s) => ({ suggestions: { list: s.suggestions.list.map((x) => (x.id === id ? { ...x, state } : x)) } })),
});

export const selectSuggestions = (s: ArborState): Suggestion[] => s.suggestions.list;
export const selectPendingSuggestions = (s: ArborState): number => s.suggestions.list.filter((x) => x.state === 'pending').length;
