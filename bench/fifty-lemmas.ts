import { quoteArgument } from '../shared/protocol/quote-argument.ts';

/**
 * A 50-lemma Arbor document in the style of the standard library (arithmetic, booleans, lists, a few
 * definitions of its own), every proof closed by explicit tactics so `END` only finishes it (no hammer):
 * what `coqc` checks in the same script is exactly what Arbor checks. Twenty lemmas use `lia`; several
 * use earlier lemmas. Written for the document-scale and try_commands benchmarks (issues 22 and 24).
 */
export interface Lemma {
  name: string;
  statement: string;
  /** One tactic (a `;` sequence in parentheses), run as a single APPLY. */
  proof: string;
}

export const DEFINITIONS: readonly string[] = [
  'Fixpoint dbl (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl k)) end.',
  'Fixpoint sum_list (l : list nat) : nat := match l with [] => 0 | x :: r => x + sum_list r end.',
  'Fixpoint count_in (x : nat) (l : list nat) : nat := match l with [] => 0 | y :: r => (if Nat.eqb x y then 1 else 0) + count_in x r end.',
  'Definition sq (n : nat) : nat := n * n.',
];

export const LEMMAS: readonly Lemma[] = [
  { name: 'add_zero_r', statement: 'forall n : nat, n + 0 = n', proof: '(intros n; induction n; simpl; congruence)' },
  { name: 'add_succ_r', statement: 'forall n m : nat, n + S m = S (n + m)', proof: '(intros n m; induction n; simpl; congruence)' },
  { name: 'add_comm_l', statement: 'forall n m : nat, n + m = m + n', proof: 'lia' },
  { name: 'add_assoc_l', statement: 'forall a b c : nat, a + (b + c) = a + b + c', proof: 'lia' },
  { name: 'mul_two_l', statement: 'forall n : nat, 2 * n = n + n', proof: 'lia' },
  { name: 'dbl_spec', statement: 'forall n : nat, dbl n = 2 * n', proof: '(intros n; induction n; simpl; lia)' },
  { name: 'dbl_add', statement: 'forall n m : nat, dbl (n + m) = dbl n + dbl m', proof: '(intros n m; rewrite !dbl_spec; lia)' },
  { name: 'le_add_r_l', statement: 'forall n m : nat, n <= n + m', proof: 'lia' },
  { name: 'lt_succ_l', statement: 'forall n : nat, n < S n', proof: 'lia' },
  { name: 'max_l_le', statement: 'forall n m : nat, n <= Nat.max n m', proof: 'lia' },
  { name: 'min_l_le', statement: 'forall n m : nat, Nat.min n m <= n', proof: 'lia' },
  { name: 'negb_invol', statement: 'forall b : bool, negb (negb b) = b', proof: '(intros b; destruct b; reflexivity)' },
  { name: 'andb_comm_l', statement: 'forall a b : bool, andb a b = andb b a', proof: '(intros a b; destruct a, b; reflexivity)' },
  { name: 'orb_comm_l', statement: 'forall a b : bool, orb a b = orb b a', proof: '(intros a b; destruct a, b; reflexivity)' },
  { name: 'andb_true_l', statement: 'forall b : bool, andb true b = b', proof: '(intros b; reflexivity)' },
  { name: 'app_nil_r_l', statement: 'forall (A : Type) (l : list A), l ++ [] = l', proof: '(intros A l; induction l; simpl; congruence)' },
  { name: 'app_assoc_l', statement: 'forall (A : Type) (l1 l2 l3 : list A), l1 ++ (l2 ++ l3) = (l1 ++ l2) ++ l3', proof: '(intros A l1 l2 l3; induction l1; simpl; congruence)' },
  { name: 'length_app_l', statement: 'forall (A : Type) (l1 l2 : list A), length (l1 ++ l2) = length l1 + length l2', proof: '(intros A l1 l2; induction l1; simpl; congruence)' },
  { name: 'rev_length_l', statement: 'forall (A : Type) (l : list A), length (rev l) = length l', proof: '(intros A l; induction l; simpl; [reflexivity | rewrite length_app_l; simpl; lia])' },
  { name: 'rev_app_l', statement: 'forall (A : Type) (l1 l2 : list A), rev (l1 ++ l2) = rev l2 ++ rev l1', proof: '(intros A l1 l2; induction l1; simpl; [rewrite app_nil_r_l; reflexivity | rewrite IHl1, app_assoc_l; reflexivity])' },
  { name: 'rev_rev_l', statement: 'forall (A : Type) (l : list A), rev (rev l) = l', proof: '(intros A l; induction l; simpl; [reflexivity | rewrite rev_app_l, IHl; reflexivity])' },
  { name: 'sum_app', statement: 'forall l1 l2 : list nat, sum_list (l1 ++ l2) = sum_list l1 + sum_list l2', proof: '(intros l1 l2; induction l1; simpl; lia)' },
  { name: 'sum_rev', statement: 'forall l : list nat, sum_list (rev l) = sum_list l', proof: '(intros l; induction l; simpl; [reflexivity | rewrite sum_app; simpl; lia])' },
  { name: 'count_app', statement: 'forall x l1 l2, count_in x (l1 ++ l2) = count_in x l1 + count_in x l2', proof: '(intros x l1 l2; induction l1; simpl; lia)' },
  { name: 'count_le_length', statement: 'forall x l, count_in x l <= length l', proof: '(intros x l; induction l as [| y r IH]; simpl; [lia | destruct (Nat.eqb x y); simpl; lia])' },
  { name: 'sq_mono', statement: 'forall n m : nat, n <= m -> sq n <= sq m', proof: '(intros n m H; unfold sq; apply Nat.mul_le_mono; exact H)' },
  { name: 'sq_dbl', statement: 'forall n : nat, sq (dbl n) = 4 * sq n', proof: '(intros n; unfold sq; rewrite dbl_spec; lia)' },
  { name: 'map_length_l', statement: 'forall (A B : Type) (f : A -> B) (l : list A), length (map f l) = length l', proof: '(intros A B f l; induction l; simpl; congruence)' },
  { name: 'map_app_l', statement: 'forall (A B : Type) (f : A -> B) (l1 l2 : list A), map f (l1 ++ l2) = map f l1 ++ map f l2', proof: '(intros A B f l1 l2; induction l1; simpl; congruence)' },
  { name: 'in_app_l', statement: 'forall (A : Type) (x : A) (l1 l2 : list A), In x l1 -> In x (l1 ++ l2)', proof: '(intros A x l1 l2 H; apply in_or_app; left; exact H)' },
  { name: 'sub_add_l', statement: 'forall n m : nat, m <= n -> n - m + m = n', proof: 'lia' },
  { name: 'mul_comm_l', statement: 'forall n m : nat, n * m = m * n', proof: 'lia' },
  { name: 'dist_l', statement: 'forall a b c : nat, a * (b + c) = a * b + a * c', proof: 'lia' },
  { name: 'even_dbl', statement: 'forall n : nat, Nat.even (dbl n) = true', proof: '(intros n; induction n; simpl; [reflexivity | exact IHn])' },
  { name: 'le_trans_l', statement: 'forall a b c : nat, a <= b -> b <= c -> a <= c', proof: 'lia' },
  { name: 'lt_le_l', statement: 'forall a b : nat, a < b -> a <= b', proof: 'lia' },
  { name: 'z_add_comm', statement: 'forall x y : Z, (x + y)%Z = (y + x)%Z', proof: 'lia' },
  { name: 'z_abs_nonneg', statement: 'forall x : Z, (0 <= Z.abs x)%Z', proof: 'lia' },
  { name: 'z_sq_nonneg', statement: 'forall x : Z, (0 <= x * x)%Z', proof: 'nia' },
  { name: 'eqb_refl_l', statement: 'forall n : nat, Nat.eqb n n = true', proof: '(intros n; induction n; simpl; [reflexivity | exact IHn])' },
  { name: 'length_zero_nil', statement: 'forall (A : Type) (l : list A), length l = 0 -> l = []', proof: '(intros A l H; destruct l; [reflexivity | discriminate H])' },
  { name: 'cons_neq_nil', statement: 'forall (A : Type) (x : A) (l : list A), x :: l <> []', proof: '(intros A x l H; discriminate H)' },
  { name: 'sum_le_dbl', statement: 'forall l : list nat, sum_list l <= dbl (sum_list l)', proof: '(intros l; rewrite dbl_spec; lia)' },
  { name: 'firstn_length_l', statement: 'forall (A : Type) (n : nat) (l : list A), length (firstn n l) <= n', proof: '(intros A n l; rewrite firstn_length; lia)' },
  { name: 'succ_inj_l', statement: 'forall n m : nat, S n = S m -> n = m', proof: '(intros n m H; injection H; intros E; exact E)' },
  { name: 'pred_succ_l', statement: 'forall n : nat, pred (S n) = n', proof: '(intros n; reflexivity)' },
  { name: 'max_comm_l', statement: 'forall n m : nat, Nat.max n m = Nat.max m n', proof: 'lia' },
  { name: 'triangle_l', statement: 'forall a b : nat, a <= b \\/ b < a', proof: 'lia' },
  { name: 'rev_sum_app', statement: 'forall l1 l2 : list nat, sum_list (rev (l1 ++ l2)) = sum_list l1 + sum_list l2', proof: '(intros l1 l2; rewrite sum_rev, sum_app; reflexivity)' },
  { name: 'dbl_mono', statement: 'forall n m : nat, n <= m -> dbl n <= dbl m', proof: '(intros n m H; rewrite !dbl_spec; lia)' },
];

/** The document as Arbor request lines: the definitions, then per lemma GOAL, one APPLY, END. */
export function fiftyLemmaDocument(): string[] {
  return [
    ...DEFINITIONS.map((d) => `DEFINE ${quoteArgument(d)}`),
    ...LEMMAS.flatMap((l) => [`GOAL ${l.name} ${quoteArgument(l.statement)}`, `APPLY ${l.proof}`, 'END']),
  ];
}
