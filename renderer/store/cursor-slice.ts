import type { StateCreator } from 'zustand';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ArborState } from './store.ts';

/**
 * Where the user's cursor is in which document (the goals panel shows the state there), and the trees of
 * steps the host had to send because they fell out of the renderer's bounded history (`channel:step`).
 */
export interface CursorSlice {
  cursor: {
    at: { uri: string; line: number } | null;
    /** Trees fetched from the host's record of each step (no prover involved), by `channel:step`. */
    fetched: Record<string, TreeView | null>;
    /** A node the tree pane is asked to centre (a link in the inspector); `seq` makes a repeat a new request. */
    reveal: { id: number; seq: number } | null;
  };
  /** Selects a node and asks the tree pane to centre it. */
  revealNode(id: number): void;
  /** The user put the cursor on `line` of `uri` (a click or a key). */
  setCursorAt(uri: string, line: number): void;
  putFetchedTree(channel: number, step: number, tree: TreeView | null): void;
}

export const createCursorSlice: StateCreator<ArborState, [], [], CursorSlice> = (set) => ({
  cursor: { at: null, fetched: {}, reveal: null },
  revealNode: (id) => set((s) => ({
    proof: { ...s.proof, selectedId: id },
    cursor: { ...s.cursor, reveal: { id, seq: (s.cursor.reveal?.seq ?? 0) + 1 } },
  })),
  setCursorAt: (uri, line) => set((s) => (s.cursor.at?.uri === uri && s.cursor.at.line === line ? s : { cursor: { ...s.cursor, at: { uri, line } } })),
  putFetchedTree: (channel, step, tree) => set((s) => {
    // A small cache: the host answers again when asked, so old entries may go.
    const keys = Object.keys(s.cursor.fetched);
    const fetched: Record<string, TreeView | null> = {};
    for (const k of keys.slice(Math.max(0, keys.length - 63))) fetched[k] = s.cursor.fetched[k] ?? null;
    fetched[`${channel}:${step}`] = tree;
    return { cursor: { ...s.cursor, fetched } };
  }),
});
