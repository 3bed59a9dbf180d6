/** What a kind's job says (the runner adds the time and the worker). */
export interface KindResult {
  outcome: string;
  evidence: unknown;
}
