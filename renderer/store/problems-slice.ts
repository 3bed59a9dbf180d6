import type { StateCreator } from 'zustand';
import type { HammerReport } from '../../shared/protocol/hammer-report.ts';
import type { SectionPremise } from '../../shared/protocol/section-premises.ts';
import type { ArborState } from './store.ts';

/**
 * The typed HAMMER reports of failed steps, by channel and the error they came with: the problems list
 * shows a failing HAMMER/END line as one line built from its report, with the stages on demand.
 */
export interface ProblemsSlice {
  problems: {
    hammer: Record<number, { error: string; report: HammerReport }>;
    /** By channel and step: the section hypotheses a proof finished at that step is proved under (END's PREMISES). */
    premises?: Record<number, Record<number, SectionPremise[]>>;
  };
  receiveHammerFailure(channel: number, error: string, report: HammerReport): void;
  receivePremises(channel: number, step: number, premises: SectionPremise[]): void;
}

export const createProblemsSlice: StateCreator<ArborState, [], [], ProblemsSlice> = (set) => ({
  problems: { hammer: {} },
  receiveHammerFailure: (channel, error, report) => set((s) => ({ problems: { ...s.problems, hammer: { ...s.problems.hammer, [channel]: { error, report } } } })),
  receivePremises: (channel, step, premises) => set((s) => ({
    problems: { ...s.problems, premises: { ...s.problems.premises, [channel]: { ...s.problems.premises?.[channel], [step]: premises } } },
  })),
});
