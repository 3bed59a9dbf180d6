import type { StateCreator } from 'zustand';
import type { ArborState } from './store.ts';

/** The tree pane shows the state (open goals, seed 000) or the derivation (every goal and how it was closed). */
export type TreeViewMode = 'state' | 'derivation';

export type BottomTab = 'messages' | 'transcript' | 'channels' | 'suggestions' | 'fidelity' | 'search' | 'vfile';

/** Where the tree pane's tree comes from: the document's channel, a loaded transcript, an opened `.v` file. */
export type TreeSource = 'live' | 'transcript' | 'vfile';

export interface UiSlice {
  ui: {
    bottomTab: BottomTab; openDialog: 'open' | 'save' | null; treeSource: TreeSource; treeView: TreeViewMode; showHelp: boolean;
    /** A document with unsaved changes the user asked to close: the question is open until answered. */
    closing: string | null;
    /** The tree pane over the whole window (a whole derivation on one screen); Esc or the button returns. */
    treeMaximized: boolean;
  };
  setBottomTab(tab: BottomTab): void;
  setClosing(uri: string | null): void;
  setOpenDialog(dialog: 'open' | 'save' | null): void;
  setTreeSource(source: TreeSource): void;
  setShowHelp(show: boolean): void;
  setTreeView(mode: TreeViewMode): void;
  setTreeMaximized(on: boolean): void;
}

export const createUiSlice: StateCreator<ArborState, [], [], UiSlice> = (set) => ({
  ui: { bottomTab: 'messages', openDialog: null, treeSource: 'live', treeView: 'state', showHelp: false, closing: null, treeMaximized: false },
  setClosing: (closing) => set((s) => ({ ui: { ...s.ui, closing } })),
  setBottomTab: (bottomTab) => set((s) => ({ ui: { ...s.ui, bottomTab } })),
  setOpenDialog: (openDialog) => set((s) => ({ ui: { ...s.ui, openDialog } })),
  setTreeSource: (treeSource) => set((s) => ({ ui: { ...s.ui, treeSource } })),
  setShowHelp: (showHelp) => set((s) => ({ ui: { ...s.ui, showHelp } })),
  setTreeMaximized: (treeMaximized) => set((s) => ({ ui: { ...s.ui, treeMaximized } })),
  setTreeView: (treeView) => set((s) => ({ ui: { ...s.ui, treeView }, proof: { ...s.proof, selectedId: null } })),
});

export const selectBottomTab = (s: ArborState): BottomTab => s.ui.bottomTab;
export const selectOpenDialog = (s: ArborState) => s.ui.openDialog;
export const selectTreeSource = (s: ArborState) => s.ui.treeSource;
export const selectTreeView = (s: ArborState): TreeViewMode => s.ui.treeView;
export const selectShowHelp = (s: ArborState) => s.ui.showHelp;
export const selectTreeMaximized = (s: ArborState): boolean => s.ui.treeMaximized;
export const selectClosing = (s: ArborState): string | null => s.ui.closing;
