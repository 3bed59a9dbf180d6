import type { StateCreator } from 'zustand';
import type { VFileProgress, VFileReport } from '../../shared/derivation/v-file-derivation.ts';
import type { CoqProjectStatus } from '../../shared/project/coq-project-status.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ArborState } from './store.ts';

/**
 * An opened `.v` file shown as derivations (read-only): the host's report, the theorem on display and the
 * step of its step-through; and the workspace's `_CoqProject` with whether it is trusted.
 */
export interface VFileSlice {
  vfile: {
    path: string | null;
    /** The file's text (shown read-only beside its derivation). */
    text: string;
    loading: boolean;
    /** How far the host has read it (while loading). */
    progress: VFileProgress | null;
    report: VFileReport | null;
    error: string | null;
    theorem: number;
    /** Index into the theorem's steps; null: the last (the whole proof). */
    step: number | null;
    /**
     * Which opening this is: opening the same file again while it is read cancels the first run, whose
     * (cancelled) report then arrives for the same path and must not replace the second run's state.
     */
    run: number;
  };
  project: CoqProjectStatus | null;
  /** Returns the run's number, for `receiveVFile`. */
  startVFile(path: string, text: string): number;
  /** `run`: the opening it answers (`startVFile`'s number); a report for an older opening is dropped. */
  receiveVFile(path: string, report: VFileReport | null, error?: string, run?: number): void;
  vFileProgress(path: string, progress: VFileProgress): void;
  selectVFileTheorem(index: number): void;
  setVFileStep(step: number | null): void;
  setProjectStatus(status: CoqProjectStatus | null): void;
}

export const createVFileSlice: StateCreator<ArborState, [], [], VFileSlice> = (set, get) => ({
  vfile: { path: null, text: '', loading: false, progress: null, report: null, error: null, theorem: 0, step: null, run: 0 },
  project: null,
  startVFile: (path, text) => {
    const run = get().vfile.run + 1;
    set(() => ({ vfile: { path, text, loading: true, progress: null, report: null, error: null, theorem: 0, step: null, run } }));
    return run;
  },
  receiveVFile: (path, report, error, run) => set((s) => (s.vfile.path !== path || (run !== undefined && run !== s.vfile.run) ? s : { vfile: { ...s.vfile, loading: false, progress: null, report, error: error ?? null } })),
  vFileProgress: (path, progress) => set((s) => (s.vfile.path !== path || !s.vfile.loading ? s : { vfile: { ...s.vfile, progress } })),
  selectVFileTheorem: (theorem) => set((s) => ({ vfile: { ...s.vfile, theorem, step: null }, proof: { ...s.proof, selectedId: null } })),
  setVFileStep: (step) => set((s) => ({ vfile: { ...s.vfile, step } })),
  setProjectStatus: (project) => set(() => ({ project })),
});

export const selectVFile = (s: ArborState) => s.vfile;
export const selectProjectStatus = (s: ArborState) => s.project;

/** The derivation of the chosen theorem after the chosen step (the whole proof by default). */
export const selectVFileTree = (s: ArborState): TreeView | null => {
  const t = s.vfile.report?.theorems[s.vfile.theorem];
  if (!t || t.steps.length === 0) return null;
  const at = s.vfile.step === null ? t.steps.length - 1 : Math.min(s.vfile.step, t.steps.length - 1);
  return t.steps[at]?.tree ?? null;
};
