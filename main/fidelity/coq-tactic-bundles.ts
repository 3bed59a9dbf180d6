/**
 * The fixed, documented tactic bundles of the Coq proof tiers. Every tactic runs under `timeout`; a
 * bundle is tried in order with `first`, and an `idtac` marker before each entry tells which one closed
 * the goal (the last marker printed). `arbor_h` is the other statement, introduced as a hypothesis.
 */
/** `t`: seconds per ordinary tactic; `h`: seconds for `hammer`. */
export interface BundleEntry { label: string; tactic: (t: number, h: number) => string }

/** S3-lite: logic only — no arithmetic, no rewriting, no ATPs. */
export const s3LiteBundle: BundleEntry[] = [
  { label: 'apply', tactic: () => 'intros; apply arbor_h' },
  { label: 'tauto', tactic: (t) => `timeout ${t} tauto` },
  { label: 'intuition', tactic: (t) => `timeout ${t} intuition` },
  { label: 'firstorder', tactic: (t) => `timeout ${t} firstorder` },
];

/** S3-lite under `--classical`: the same, with excluded middle available to `firstorder`. */
export const s3LiteClassicalExtra: BundleEntry[] = [
  { label: 'firstorder+classic', tactic: (t) => `timeout ${t} (pose proof classic as arbor_em; firstorder)` },
  { label: 'nnpp+firstorder', tactic: (t) => `timeout ${t} (intros; apply NNPP; intro; firstorder)` },
];

/** BEq+: resolution with the other statement, then decision procedures, then CoqHammer's `hammer`. */
export const beqPlusBundle: BundleEntry[] = [
  { label: 'apply', tactic: () => 'intros; apply arbor_h' },
  { label: 'eapply', tactic: (t) => `timeout ${t} (intros; eapply arbor_h; eauto)` },
  { label: 'intuition', tactic: (t) => `timeout ${t} intuition` },
  { label: 'firstorder', tactic: (t) => `timeout ${t} firstorder` },
  { label: 'congruence', tactic: (t) => `timeout ${t} (intros; congruence)` },
  { label: 'lia', tactic: (t) => `timeout ${t} (intros; lia)` },
  { label: 'apply+lia', tactic: (t) => `timeout ${t} (intros; apply arbor_h; lia)` },
  { label: 'sauto', tactic: (t) => `timeout ${t} sauto` },
  { label: 'hammer', tactic: (_t, h) => `timeout ${h} hammer` },
];

/** The guard's bundle (a statement alone): every entry of either tier that does not use `arbor_h`. */
export const standaloneBundle: BundleEntry[] = [
  { label: 'tauto', tactic: (t) => `timeout ${t} tauto` },
  { label: 'intuition', tactic: (t) => `timeout ${t} intuition` },
  { label: 'firstorder', tactic: (t) => `timeout ${t} firstorder` },
  { label: 'congruence', tactic: (t) => `timeout ${t} (intros; congruence)` },
  { label: 'lia', tactic: (t) => `timeout ${t} (intros; lia)` },
  { label: 'sauto', tactic: (t) => `timeout ${t} sauto` },
  { label: 'hammer', tactic: (_t, h) => `timeout ${h} hammer` },
];

/** `first [ (idtac "MARK i"; solve [ tac_i ]) | … ]`. */
export function bundleTactic(bundle: BundleEntry[], marker: string, t: number, h: number): string {
  return `first [ ${bundle.map((e, i) => `(idtac "${marker} ${i}"; solve [ ${e.tactic(t, h)} ])`).join('\n  | ')} ]`;
}

/** Which entry closed the goal: the last marker coqc printed. */
export function winningEntry(output: string, marker: string, bundle: BundleEntry[]): BundleEntry | null {
  const hits = [...output.matchAll(new RegExp(`${marker} (\\d+|none)`, 'gu'))];
  const last = hits[hits.length - 1];
  return last && last[1] !== 'none' ? (bundle[Number(last[1])] ?? null) : null;
}

/** The tactic CoqHammer says replaces `hammer` (reconstruction), if it printed one. */
export function hammerReconstruction(output: string): string | null {
  const m = /Replace the hammer tactic with:\s*(.+)/u.exec(output);
  return m ? (m[1] as string).trim().replace(/\.$/u, '') : null;
}
