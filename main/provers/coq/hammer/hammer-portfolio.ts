/**
 * HAMMER's portfolio on the whole goal, cheapest first (issue 13): every stage gets the original goal, so
 * HAMMER never does worse than a stage run alone. Each entry is one tactic that must close the goal
 * (`solve [...]`) within its own slice of the budget; what closes it goes into the script as it is.
 */
export interface PortfolioTactic {
  stage: 'decision' | 'rewrite' | 'sauto' | 'witness';
  tactic: string;
  /** Its slice of the budget, seconds (never more than what is left of the budget). */
  secs: number;
}

/**
 * The standard library's equations about lengths, appends, reversal and maps, used as optional rewrites.
 * Named fully, here and in every tactic below: a `PRELUDE bare` document loads these libraries without
 * importing them, and a document may define its own `app_assoc`.
 */
const LIST_REWRITES = ['app_length', 'rev_length', 'map_length', 'app_nil_r', 'rev_app_distr', 'rev_involutive', 'map_app', 'app_assoc', 'last_length', 'repeat_length', 'seq_length', 'firstn_length', 'skipn_length', 'combine_length', 'app_comm_cons'].map((n) => `Coq.Lists.List.${n}`);

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

/** What finishes a goal once the induction hypothesis has been used: arithmetic, congruence, `++` reassociated either way. */
const IH_FINISH = 'first [assumption | reflexivity | lia | congruence | rewrite <- Coq.Lists.List.app_assoc; reflexivity | rewrite Coq.Lists.List.app_assoc; reflexivity | rewrite ?Coq.Lists.List.app_length; simpl; lia]';

/**
 * Uses the induction hypothesis (issue 13): after simplification and `n + S m` → `S (n + m)` (what makes
 * `evenb (S n + S n)` reduce), rewrite with each hypothesis in turn, left to right or right to left — a
 * universally quantified one (`IHl : forall acc, …`) is instantiated by `rewrite` — then finish. A
 * hypothesis that does not fit fails at once and `match` tries the next one.
 */
const IH_CLOSER = `(simpl in *; rewrite ?Coq.Arith.PeanoNat.Nat.add_succ_r, ?Coq.Arith.PeanoNat.Nat.add_0_r in *; simpl in *; first [${IH_FINISH} | match goal with IH : _ |- _ => first [rewrite IH; simpl in *; ${IH_FINISH} | rewrite <- IH; simpl in *; ${IH_FINISH}] end])`;

/** Closers for each case of an induction (the induction hypothesis is in the context): its rewrite first, then the searches. */
const CASE_CLOSER = `(try solve [${IH_CLOSER}]; simpl in *; do 3 rewrite ?${LIST_REWRITES.slice(0, 8).join(', ?')} in *; try congruence; try lia; try (sauto limit: 500); try hauto)`;

/**
 * Structural induction on a variable, with or without the other variables generalised first (what makes
 * the hypothesis strong enough for accumulator lemmas), each case closed by the same closers. Only the
 * candidates are reverted: a type parameter (`A : Type`) stays, since the list being inducted on depends on it.
 */
export function inductionTactics(candidates: readonly string[], all: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of candidates) {
    const others = candidates.filter((x) => x !== v);
    out.push(`solve [intros ${all.join(' ')}; induction ${v}; ${CASE_CLOSER}]`);
    if (others.length > 0) out.push(`solve [intros ${all.join(' ')}; revert ${others.join(' ')}; induction ${v}; intros; ${CASE_CLOSER}]`);
  }
  return out;
}

/**
 * Structural induction whose cases may also use the lemmas premise selection chose (`hauto use:` and their
 * equations as rewrites): what an induction step needs when the document proved the key lemma earlier.
 */
export function inductionWithPremisesTactics(candidates: readonly string[], all: readonly string[], premises: readonly string[], equations: readonly string[]): string[] {
  if (premises.length === 0) return [];
  const rewrites = equations.length === 0 ? '' : `try solve [rewrite ?${equations.join(', ?')} in *; ${IH_CLOSER}]; `;
  const closer = `(try solve [${IH_CLOSER}]; simpl in *; ${rewrites}try solve [hauto use: ${premises.slice(0, 6).join(', ')}]; ${CASE_CLOSER})`;
  const out: string[] = [];
  for (const v of candidates) {
    const others = candidates.filter((x) => x !== v);
    out.push(`solve [intros ${all.join(' ')}; induction ${v}; ${closer}]`);
    if (others.length > 0) out.push(`solve [intros ${all.join(' ')}; revert ${others.join(' ')}; induction ${v}; intros; ${closer}]`);
  }
  return out;
}

/**
 * Nested induction for two-variable lemmas (depth 2, never deeper): induction on one variable (the other
 * generalised, then re-introduced by name) and in each case on the second. Tried after single induction,
 * only when the goal has at least two candidates; the first three candidates give at most six orders.
 */
export function nestedInductionTactics(candidates: readonly string[], all: readonly string[]): string[] {
  const out: string[] = [];
  const some = candidates.slice(0, 3);
  for (const v of some) {
    for (const w of some) {
      if (v === w) continue;
      const others = candidates.filter((x) => x !== v);
      out.push(`solve [intros ${all.join(' ')}; revert ${others.join(' ')}; induction ${v}; intros ${others.join(' ')}; induction ${w}; ${CASE_CLOSER}]`);
    }
  }
  return out;
}

/**
 * How many constructors the patterns of each of the document's recursive functions peel at once (`evenb`
 * matches `S (S k)`: 2; `mod3` matches `2` and `S (S (S k))`: 3), for those that peel more than one: the
 * depth the recursion-shaped induction must destruct to, whatever it is.
 */
export function recursionDepths(sentences: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of sentences) {
    const m = /^\s*Fixpoint\s+([\p{L}_][\p{L}\p{N}_']*)/u.exec(s);
    if (!m) continue;
    // The patterns: what stands between `with` or `|` and `=>` (not the bodies, where `S (S (dbl k))` is one step).
    const patterns = [...s.matchAll(/(?:\bwith\b|\|)([^|]*?)=>/g)].map((p) => p[1] as string);
    const depth = Math.max(0, ...patterns.map((p) => Math.max(
      (p.match(/\bS\b/g) ?? []).length,
      (p.match(/::/g) ?? []).length,
      // A numeral pattern `2` is S (S O): the cases up to it, then one more step.
      ...(p.match(/(?<![\p{L}\p{N}_'.])\d+(?![\p{L}\p{N}_'.])/gu) ?? []).map((d) => Math.min(8, Number(d) + 1)),
    )));
    if (depth >= 2) out.set(m[1] as string, Math.min(depth, 8));
  }
  return out;
}

/** The document's recursive functions whose recursion is not one structural step (see recursionDepths). */
export function deepRecursors(sentences: readonly string[]): string[] {
  return [...recursionDepths(sentences).keys()];
}

/**
 * Recursion-shaped induction (the functional induction a function like `evenb` needs), inside the proof so
 * that coqc re-checks it as it is: strong induction on a nat (`lt_wf_ind`, the library's well-founded
 * induction on <), then the cases the function's patterns name to its depth d (0, 1, …, S^d k); the
 * hypothesis is instantiated at k, S k, …, S^(d-1) k, the function unfolded (`simpl f`: only it, so `mod`
 * and `*` stay readable for lia), and each case closed.
 */
export function recursionInductionTactics(natVars: readonly string[], candidates: readonly string[], all: readonly string[], functions: readonly string[], depth = 2): string[] {
  const unfold = functions.length === 0 ? 'simpl in *' : `simpl ${functions.join(', ')} in *`;
  const d = Math.max(2, Math.min(8, Math.floor(depth)));
  return natVars.map((v) => {
    const others = candidates.filter((x) => x !== v);
    const revert = others.length === 0 ? '' : `revert ${others.join(' ')}; `;
    const pattern = `${'[|'.repeat(d)}${v}${']'.repeat(d)}`;
    const instances = Array.from({ length: d }, (_, i) => `try pose proof (IHs ${'(S '.repeat(i)}${v}${')'.repeat(i)} ltac:(lia)); `).join('');
    return `solve [intros ${all.join(' ')}; ${revert}induction ${v} as [${v} IHs] using Coq.Arith.Wf_nat.lt_wf_ind; intros; destruct ${v} as ${pattern}; `
      + `${instances}${unfold}; intros; `
      + `first [reflexivity | discriminate | assumption | solve [intuition (try lia; try congruence)] | solve [${IH_CLOSER}] | solve [sauto limit: 500]]]`;
  });
}

/** Whether a goal (after `intros`) asks for a witness: `exists x, …`, or divisibility (`(a | b)`, `Nat.divide a b`). */
export const wantsWitness = (goal: string): boolean => /^\s*exists\b|^\s*\(.*\|.*\)\s*$|^\s*Nat\.divide\b/s.test(goal);

/**
 * Linear combinations `k * v + c` of the goal's variables whose coefficients come from its constants
 * (issue 25): for a divisibility by a literal `d`, the constants divided by `d` (`Nat.divide 4 (8 * n + 12)`
 * wants `2 * n + 3`); otherwise the constants themselves. At most eight, the likeliest first.
 */
export function linearWitnesses(goal: string, natVars: readonly string[]): string[] {
  if (natVars.length === 0) return [];
  const constants = [...new Set((goal.match(/(?<![\p{L}\p{N}_'.])\d+(?![\p{L}\p{N}_'.])/gu) ?? []).map(Number))].filter((c) => c > 0 && c < 10_000);
  const divisor = /^\s*(?:Nat\.divide\s+(\d+)\b|\(\s*(\d+)\s*\|)/.exec(goal);
  const d = divisor ? Number(divisor[1] ?? divisor[2]) : undefined;
  const scaled = d === undefined || d === 0 ? constants : constants.filter((c) => c % d === 0 && c !== d).map((c) => c / d);
  const coefficients = [...new Set(scaled.filter((k) => k > 1))];
  const offsets = [...new Set([...scaled, 0, 1])];
  const out: string[] = [];
  for (const v of natVars) for (const k of coefficients) for (const c of offsets) out.push(c === 0 ? `${k} * ${v}` : `${k} * ${v} + ${c}`);
  return out.slice(0, 8);
}

/**
 * Witnesses built from the goal's variables and small constants (`v`, `v + 1`, `v + 2`, `v - 1`, `2 * v`,
 * `0`, `1`, `2`; at most twelve), each followed by lia, then each by nia: one tactic per witness, so the
 * script and the report say which witness it was. Divisibility is an existential
 * (`Nat.divide a b := exists z, b = z * a`), so the same witnesses serve it.
 */
export function witnessTactics(natVars: readonly string[], all: readonly string[], goal = ''): PortfolioTactic[] {
  const simple = [...natVars.flatMap((v) => [v, `${v} + 1`, `${v} + 2`, `${v} - 1`, `2 * ${v}`]), '0', '1', '2'].slice(0, 12);
  const terms = [...new Set([...linearWitnesses(goal, natVars), ...simple])].slice(0, 20);
  const intro = all.length === 0 ? 'intros' : `intros ${all.join(' ')}`;
  return ['lia', 'nia'].flatMap((closer) => terms.map((t) => ({ stage: 'witness' as const, tactic: `solve [${intro}; try unfold Nat.divide; exists (${t}); ${closer}]`, secs: 1 })));
}
