import { verdicts } from './fidelity-types.ts';
import type { FidelityReport, TierId, Verdict } from './fidelity-types.ts';

export interface FidelityTotals {
  cases: number;
  byVerdict: Record<Verdict, number>;
  byTier: Partial<Record<TierId | 'none', number>>;
  msTotal: number;
  msMean: number;
  msMedian: number;
  /** Present when ground truth is known for every case. */
  accuracy?: {
    overall: number;
    /** Per ground-truth class: share of its cases given exactly that verdict (the class's recall). */
    perTruth: Partial<Record<Verdict, { cases: number; correct: number; accuracy: number }>>;
    /** Of the `equivalent` verdicts, the share whose truth is `equivalent` (must be 1). */
    precisionEquivalent: number | null;
    precisionNotEquivalent: number | null;
    recallEquivalent: number | null;
    recallNotEquivalent: number | null;
    /** Cases with a wrong decided verdict (an `unknown` is never wrong, only unhelpful). */
    wrong: string[];
  };
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function summarise(reports: FidelityReport[], truths?: (Verdict | undefined)[]): FidelityTotals {
  const byVerdict = Object.fromEntries(verdicts.map((v) => [v, 0])) as Record<Verdict, number>;
  const byTier: Partial<Record<TierId | 'none', number>> = {};
  for (const r of reports) {
    byVerdict[r.verdict]++;
    const k = r.tier ?? 'none';
    byTier[k] = (byTier[k] ?? 0) + 1;
  }
  const times = reports.map((r) => r.ms).sort((a, b) => a - b);
  const msTotal = times.reduce((a, b) => a + b, 0);
  const totals: FidelityTotals = {
    cases: reports.length, byVerdict, byTier, msTotal,
    msMean: reports.length ? msTotal / reports.length : 0,
    msMedian: times.length ? (times[Math.floor((times.length - 1) / 2)] as number) : 0,
  };
  if (truths && truths.length === reports.length && truths.every((t) => t !== undefined)) {
    const perTruth: NonNullable<FidelityTotals['accuracy']>['perTruth'] = {};
    let correct = 0;
    const wrong: string[] = [];
    reports.forEach((r, i) => {
      const t = truths[i] as Verdict;
      const e = (perTruth[t] ??= { cases: 0, correct: 0, accuracy: 0 });
      e.cases++;
      if (r.verdict === t) { e.correct++; correct++; } else if (r.verdict !== 'unknown') wrong.push(`${r.id ?? i}: ${r.verdict} (truth ${t})`);
    });
    for (const e of Object.values(perTruth)) e.accuracy = e.correct / e.cases;
    const count = (v: Verdict, t?: Verdict): number => reports.filter((r, i) => r.verdict === v && (t === undefined || truths[i] === t)).length;
    const truthCount = (t: Verdict): number => truths.filter((x) => x === t).length;
    totals.accuracy = {
      overall: correct / reports.length, perTruth,
      precisionEquivalent: ratio(count('equivalent', 'equivalent'), count('equivalent')),
      precisionNotEquivalent: ratio(count('not_equivalent', 'not_equivalent'), count('not_equivalent')),
      recallEquivalent: ratio(count('equivalent', 'equivalent'), truthCount('equivalent')),
      recallNotEquivalent: ratio(count('not_equivalent', 'not_equivalent'), truthCount('not_equivalent')),
      wrong,
    };
  }
  return totals;
}
