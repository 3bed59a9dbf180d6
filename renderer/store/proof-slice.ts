import type { StateCreator } from 'zustand';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { DerivationReply } from '../../shared/derivation/recorded-derivation.ts';
import type { StatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import type { ArborState } from './store.ts';

/**
 * The trees of a channel's latest steps (at most HISTORY_STEPS of them), by step: the history slider and
 * goal diffs read from here. Bounded, so a long proof costs the same per step at step 2,000 as at step 20;
 * consecutive trees share every unchanged subtree (they are built from the host's tree changes).
 */
export interface ChannelTrees {
  byStep: Record<number, TreeView | null>;
  latest: number;
}

export const HISTORY_STEPS = 400;

export interface ProofSlice {
  proof: {
    trees: Record<number, ChannelTrees>;
    selectedId: number | null;
    collapsed: Record<number, true>;
    /** null: follow the latest step; a number: show that step of history. */
    historyStep: number | null;
    search: string;
    /** A synthetic tree shown instead (performance mode). */
    synthetic: TreeView | null;
    /** The reproduction script of each channel's finished proof (the `SCRIPT` of its last END). */
    scripts: Record<number, string>;
    /** A finished proof's STATEMENT (its elaborated meaning differs from its text's clean reading), by channel. */
    meanings: Record<number, StatementMeaning>;
    /** The derivation the host last sent for each channel (the item and step it was asked for, or why none). */
    derivations: Record<number, DerivationReply>;
    /** The document item whose derivation is shown (the outline's choice); null: the one the slider or the proof is at. */
    derivationItem: number | null;
    /** The editor line the user last put the cursor on (null: not yet): its item's derivation is shown. */
    cursorLine: number | null;
  };
  receiveDerivation(channel: number, reply: DerivationReply): void;
  /** Shows the derivation of item `item` (null: follow the proof, not the cursor), from its last step. */
  selectDerivationItem(item: number | null): void;
  /** The user moved the editor's cursor: the derivation follows it (the outline's choice gives way). */
  setCursorLine(line: number): void;
  /** A finishing END's script and STATEMENT (null: a later step voided both). */
  receiveScript(channel: number, script: string | null, meaning?: StatementMeaning): void;
  receiveTree(channel: number, step: number, tree: TreeView | null): void;
  forgetChannel(channel: number): void;
  selectNode(id: number | null): void;
  toggleCollapsed(id: number): void;
  setHistoryStep(step: number | null): void;
  setSearch(query: string): void;
  setSynthetic(tree: TreeView | null): void;
}

export const createProofSlice: StateCreator<ArborState, [], [], ProofSlice> = (set) => ({
  proof: { trees: {}, selectedId: null, collapsed: {}, historyStep: null, search: '', synthetic: null, scripts: {}, meanings: {}, derivations: {}, derivationItem: null, cursorLine: null },
  receiveDerivation: (channel, reply) => set((s) => ({ proof: { ...s.proof, derivations: { ...s.proof.derivations, [channel]: reply } } })),
  setCursorLine: (line) => set((s) => (s.proof.cursorLine === line && s.proof.derivationItem === null ? s : { proof: { ...s.proof, cursorLine: line, derivationItem: null } })),
  selectDerivationItem: (item) => set((s) => ({ proof: { ...s.proof, derivationItem: item, cursorLine: null, historyStep: null, selectedId: null } })),
  receiveScript: (channel, script, meaning) => set((s) => {
    const scripts = { ...s.proof.scripts };
    const meanings = { ...s.proof.meanings };
    if (script === null) delete scripts[channel];
    else scripts[channel] = script;
    if (meaning === undefined) delete meanings[channel];
    else meanings[channel] = meaning;
    return { proof: { ...s.proof, scripts, meanings } };
  }),
  receiveTree: (channel, step, tree) => set((s) => {
    const old = s.proof.trees[channel];
    // A step at or below the latest means REVERT (or a new GOAL): later history is gone. Integer keys
    // enumerate in ascending order, so the oldest come first.
    const byStep: Record<number, TreeView | null> = {};
    if (old) {
      const kept = Object.keys(old.byStep).map(Number).filter((k) => k < step);
      for (const k of kept.slice(Math.max(0, kept.length - (HISTORY_STEPS - 1)))) byStep[k] = old.byStep[k] ?? null;
    }
    byStep[step] = tree;
    return { proof: { ...s.proof, trees: { ...s.proof.trees, [channel]: { byStep, latest: step } }, historyStep: null } };
  }),
  forgetChannel: (channel) => set((s) => {
    const { [channel]: _gone, ...trees } = s.proof.trees;
    const { [channel]: _old, ...derivations } = s.proof.derivations;
    return { proof: { ...s.proof, trees, derivations } };
  }),
  selectNode: (id) => set((s) => ({ proof: { ...s.proof, selectedId: id } })),
  toggleCollapsed: (id) => set((s) => {
    const collapsed = { ...s.proof.collapsed };
    if (collapsed[id]) delete collapsed[id];
    else collapsed[id] = true;
    return { proof: { ...s.proof, collapsed } };
  }),
  setHistoryStep: (step) => set((s) => ({ proof: { ...s.proof, historyStep: step } })),
  setSearch: (search) => set((s) => ({ proof: { ...s.proof, search } })),
  setSynthetic: (synthetic) => set((s) => ({ proof: { ...s.proof, synthetic, selectedId: null } })),
});

export const selectActiveChannel = (s: ArborState): number | undefined =>
  s.documents.activeUri ? s.documents.docs[s.documents.activeUri]?.channel : undefined;
export const selectChannelTrees = (s: ArborState): ChannelTrees | undefined => {
  const ch = selectActiveChannel(s);
  return ch === undefined ? undefined : s.proof.trees[ch];
};
export const selectActiveScript = (s: ArborState): string | undefined => {
  const ch = selectActiveChannel(s);
  return ch === undefined ? undefined : s.proof.scripts[ch];
};
export const selectActiveMeaning = (s: ArborState): StatementMeaning | undefined => {
  const ch = selectActiveChannel(s);
  return ch === undefined ? undefined : s.proof.meanings[ch];
};
export const selectHistoryStep = (s: ArborState): number | null => s.proof.historyStep;
export const selectSelectedId = (s: ArborState): number | null => s.proof.selectedId;
export const selectCollapsed = (s: ArborState): Record<number, true> => s.proof.collapsed;
export const selectSearch = (s: ArborState): string => s.proof.search;
export const selectSynthetic = (s: ArborState): TreeView | null => s.proof.synthetic;

/** The step on display: the history slider's, else the latest. */
export const selectShownStep = (s: ArborState): number | undefined => {
  const trees = selectChannelTrees(s);
  if (!trees) return undefined;
  return s.proof.historyStep ?? trees.latest;
};
