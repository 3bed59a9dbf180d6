/**
 * HAMMER's portfolio on the whole goal, cheapest first (issue 13): every stage gets the original goal, so
 * HAMMER never does worse than a stage run alone. Each entry is one tactic that must close the goal
 * (`solve [...]`) within its own slice of the budget; what closes it goes into the script as it is.
 */
export interface PortfolioTactic {
  stage: 'decision' | 'rewrite' | 'sauto';
  tactic: string;
  /** Its slice of the budget, seconds (stretched when the machine is loaded: see `sliceSeconds`). */
  secs: number;
}

/** The standard library's equations about lengths, appends, reversal and maps, used as optional rewrites. */
const LIST_REWRITES = ['app_length', 'rev_length', 'map_length', 'app_nil_r', 'rev_app_distr', 'rev_involutive', 'map_app', 'app_assoc', 'last_length', 'repeat_length', 'seq_length', 'firstn_length', 'skipn_length', 'combine_length', 'app_comm_cons'];

export const WHOLE_GOAL_PORTFOLIO: readonly PortfolioTactic[] = [
  // Decision procedures: instant when they apply.
  { stage: 'decision', tactic: 'solve [intros; lia]', secs: 1 },
  { stage: 'decision', tactic: 'solve [intros; congruence]', secs: 1 },
  { stage: 'decision', tactic: 'solve [tauto]', secs: 1 },
  { stage: 'decision', tactic: 'solve [intros; ring]', secs: 1 },
  { stage: 'decision', tactic: 'solve [intros; nia]', secs: 2 },
  { stage: 'decision', tactic: 'solve [firstorder]', secs: 1 },
  // Simplification and rewriting: the obvious rewrite before any search (`rewrite app_length; simpl; lia`).
  // Three passes: one rewrite can uncover another earlier in the list (map_length leaves an app_length).
  { stage: 'rewrite', tactic: `solve [intros; simpl in *; do 3 rewrite ?${LIST_REWRITES.join(', ?')} in *; simpl in *; (lia || congruence || reflexivity || auto)]`, secs: 2 },
  { stage: 'rewrite', tactic: 'solve [intros; subst; simpl in *; autorewrite with list arith core in *; simpl in *; (lia || congruence || reflexivity || auto)]', secs: 2 },
  { stage: 'rewrite', tactic: 'solve [intros; repeat match goal with H : _ = _ |- _ => rewrite H in * || rewrite <- H in * end; (lia || congruence || reflexivity)]', secs: 1 },
  // CoqHammer's own proof search on the whole goal (the issue's `sauto` that CRUSH's pieces hid).
  { stage: 'sauto', tactic: 'solve [sauto limit: 1000]', secs: 2 },
  { stage: 'sauto', tactic: 'solve [hauto]', secs: 2 },
  { stage: 'sauto', tactic: 'solve [intuition (auto with arith)]', secs: 1 },
];

/** Closers for each case of an induction (the induction hypothesis is in the context). */
const CASE_CLOSER = `(simpl in *; do 3 rewrite ?${LIST_REWRITES.slice(0, 8).join(', ?')} in *; try congruence; try lia; try (sauto limit: 500); try hauto)`;

/**
 * Structural induction on a variable, with or without the other variables generalised first (what makes
 * the hypothesis strong enough for accumulator lemmas), each case closed by the same closers.
 */
export function inductionTactics(candidates: readonly string[], all: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of candidates) {
    const others = all.filter((x) => x !== v);
    out.push(`solve [intros ${all.join(' ')}; induction ${v}; ${CASE_CLOSER}]`);
    if (others.length > 0) out.push(`solve [intros ${all.join(' ')}; revert ${others.join(' ')}; induction ${v}; intros; ${CASE_CLOSER}]`);
  }
  return out;
}

/** A stage's slice in seconds, stretched by the load factor (loaded machine: slower, not failed). */
export const sliceSeconds = (secs: number, load: number): number => Math.max(1, Math.ceil(secs * Math.max(1, load)));
