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
  };
  project: CoqProjectStatus | null;
  startVFile(path: string, text: string): void;
  receiveVFile(path: string, report: VFileReport | null, error?: string): void;
  vFileProgress(path: string, progress: VFileProgress): void;
  selectVFileTheorem(index: number): void;
  setVFileStep(step: number | null): void;
  setProjectStatus(status: CoqProjectStatus | null): void;
}

export const createVFileSlice: StateCreator<ArborState, [], [], VFileSlice> = (set) => ({
  vfile: { path: null, text: '', loading: false, progress: null, report: null, error: null, theorem: 0, step: null },
  project: null,
  startVFile: (path, text) => set(() => ({ vfile: { path, text, loading: true, progress: null, report: null, error: null, theorem: 0, step: null } })),
  receiveVFile: (path, report, error) => set((s) => (s.vfile.path !== path ? s : { vfile: { ...s.vfile, loading: false, progress: null, report, error: error ?? null } })),
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
