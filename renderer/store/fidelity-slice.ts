import type { StateCreator } from 'zustand';
import type { FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import type { ArborState } from './store.ts';

export interface FidelityForm {
  canonical: string;
  candidate: string;
  context: string;
  backend: 'coq' | 'lean';
}

/**
 * The Fidelity panel: the two statements being compared, the last report, and each document's reference
 * statement (by document uri), against which agents' suggested goals are checked on the host.
 */
export interface FidelitySlice {
  fidelity: {
    form: FidelityForm;
    /** Milliseconds since the epoch when the running check started; null when idle. */
    runningSince: number | null;
    report: FidelityReport | null;
    error: string | null;
    references: Record<string, string>;
  };
  setFidelityForm(patch: Partial<FidelityForm>): void;
  startFidelityRun(time: number): void;
  finishFidelityRun(result: { report: FidelityReport } | { error: string }): void;
  setReference(uri: string, statement: string): void;
}

export const createFidelitySlice: StateCreator<ArborState, [], [], FidelitySlice> = (set) => ({
  fidelity: { form: { canonical: '', candidate: '', context: '', backend: 'coq' }, runningSince: null, report: null, error: null, references: {} },
  setFidelityForm: (patch) => set((s) => ({ fidelity: { ...s.fidelity, form: { ...s.fidelity.form, ...patch } } })),
  startFidelityRun: (time) => set((s) => ({ fidelity: { ...s.fidelity, runningSince: time, error: null } })),
  finishFidelityRun: (result) => set((s) => ({
    fidelity: { ...s.fidelity, runningSince: null, ...('report' in result ? { report: result.report, error: null } : { error: result.error }) },
  })),
  setReference: (uri, statement) => set((s) => {
    const { [uri]: _old, ...rest } = s.fidelity.references;
    return { fidelity: { ...s.fidelity, references: statement.trim() === '' ? rest : { ...rest, [uri]: statement } } };
  }),
});

export const selectFidelityForm = (s: ArborState): FidelityForm => s.fidelity.form;
export const selectFidelityRunningSince = (s: ArborState): number | null => s.fidelity.runningSince;
export const selectFidelityReport = (s: ArborState): FidelityReport | null => s.fidelity.report;
export const selectFidelityError = (s: ArborState): string | null => s.fidelity.error;
export const selectReferences = (s: ArborState): Record<string, string> => s.fidelity.references;
export const selectActiveReference = (s: ArborState): string =>
  (s.documents.activeUri ? s.fidelity.references[s.documents.activeUri] : undefined) ?? '';
