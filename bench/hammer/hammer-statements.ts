/**
 * The hammer benchmark's statements (issue 13): families of stdlib-style lemmas over nat, Z, bool, lists,
 * relations and folds, each with a reference proof, graded easy / medium / hard (hard: induction, or several
 * library lemmas). Definitions are the benchmark's own (`Fixpoint sum_to`, …), so no statement exists
 * literally in the standard library; `bench:hammer --check` compiles every reference proof with coqc and
 * asks `Search` that no statement is a library lemma.
 */
export type Grade = 'easy' | 'medium' | 'hard';

export interface HammerStatement {
  id: string;
  grade: Grade;
  /** Declarations the statement needs (Coq vernacular), before it. */
  defs: string[];
  statement: string;
  /** A proof Coq accepts (checked by `--check`). */
  proof: string;
}

/** The benchmark's own definitions, shared by the statements that use them. */
export const DEFS = {
  sumTo: 'Fixpoint sum_to (n : nat) : nat := match n with 0 => 0 | S k => n + sum_to k end.',
  dbl: 'Fixpoint dbl (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl k)) end.',
  sumList: 'Fixpoint sum_list (l : list nat) : nat := match l with [] => 0 | x :: t => x + sum_list t end.',
  count: 'Fixpoint count (x : nat) (l : list nat) : nat := match l with [] => 0 | y :: t => (if Nat.eqb x y then 1 else 0) + count x t end.',
  snoc: 'Definition snoc {A : Type} (l : list A) (x : A) : list A := l ++ [x].',
  myRev: 'Fixpoint my_rev {A : Type} (l : list A) : list A := match l with [] => [] | x :: t => my_rev t ++ [x] end.',
  // Not `rev_acc`: the library has that name (a notation for rev_append).
  revAcc: 'Fixpoint rev_onto {A : Type} (l acc : list A) : list A := match l with [] => acc | x :: t => rev_onto t (x :: acc) end.',
  tree: 'Inductive tree := Leaf | Node (l : tree) (n : nat) (r : tree).',
  size: 'Fixpoint size (t : tree) : nat := match t with Leaf => 0 | Node l _ r => size l + 1 + size r end.',
  mirror: 'Fixpoint mirror (t : tree) : tree := match t with Leaf => Leaf | Node l n r => Node (mirror r) n (mirror l) end.',
  leaves: 'Fixpoint leaves (t : tree) : nat := match t with Leaf => 1 | Node l _ r => leaves l + leaves r end.',
  evenb: 'Fixpoint evenb (n : nat) : bool := match n with 0 => true | 1 => false | S (S k) => evenb k end.',
  plus3: 'Definition plus3 (n : nat) := n + 3.',
  sq: 'Definition sq (n : nat) := n * n.',
  sumAcc: 'Fixpoint sum_acc (l : list nat) (acc : nat) : nat := match l with [] => acc | x :: t => sum_acc t (acc + x) end.',
  pow2: 'Fixpoint pow2 (n : nat) : nat := match n with 0 => 1 | S k => 2 * pow2 k end.',
};

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

function easy(): HammerStatement[] {
  const out: HammerStatement[] = [];
  for (const k of range(10)) {
    out.push({ id: `lin-${k}`, grade: 'easy', defs: [], statement: `forall n m : nat, n + ${k} * m + m = n + ${k + 1} * m`, proof: 'intros; lia.' });
  }
  for (const k of range(8)) {
    out.push({ id: `ring-${k}`, grade: 'easy', defs: [], statement: `forall a b : nat, (a + b) * ${k} = ${k} * b + a * ${k}`, proof: 'intros; ring.' });
  }
  for (const k of range(8)) {
    out.push({ id: `zle-${k}`, grade: 'easy', defs: [], statement: `forall x y : Z, (x <= y)%Z -> (x - ${k} < y + ${k})%Z`, proof: 'intros; lia.' });
  }
  const props = [
    'forall P Q R : Prop, (P -> Q) -> (Q -> R) -> P -> R',
    'forall P Q : Prop, P /\\ Q -> Q /\\ P',
    'forall P Q : Prop, P \\/ Q -> Q \\/ P',
    'forall (A : Type) (P Q : A -> Prop), (forall x, P x /\\ Q x) -> (forall x, Q x)',
    'forall (A : Type) (P : A -> Prop) (a : A), P a -> exists x, P x',
    'forall P Q R : Prop, ~ (P \\/ Q \\/ R) -> ~ Q /\\ ~ R',
    'forall (A : Type) (R : A -> A -> Prop), (forall x y, R x y -> R y x) -> forall a b, R a b -> R b a',
    'forall (A : Type) (x y z : A), x = y -> y = z -> z = x',
  ];
  props.forEach((statement, i) => out.push({ id: `logic-${i + 1}`, grade: 'easy', defs: [], statement, proof: /=/.test(statement) ? 'intros; congruence.' : 'firstorder.' }));
  // Not the library's own laws (negb_involutive, andb_comm, … are excluded by `--check`'s Search).
  const bools = [
    'forall a b : bool, negb (andb a (negb b)) = orb (negb a) b', 'forall a b c : bool, andb a (orb b c) = orb (andb c a) (andb a b)',
    'forall a b : bool, orb (andb a b) (andb a (negb b)) = a', 'forall a b : bool, andb (orb a b) (negb a) = andb b (negb a)',
    'forall a b : bool, negb (orb (negb a) (negb b)) = andb b a', 'forall a b : bool, implb a (orb a b) = true',
  ];
  bools.forEach((statement, i) => out.push({ id: `bool-${i + 1}`, grade: 'easy', defs: [], statement, proof: 'intros; repeat (match goal with b : bool |- _ => destruct b; clear b end); reflexivity.' }));
  for (const k of range(5)) out.push({ id: `plus3-${k}`, grade: 'easy', defs: [DEFS.plus3], statement: `forall n : nat, plus3 (n + ${k}) = n + ${k + 3}`, proof: 'intros; unfold plus3; lia.' });
  for (const k of range(5)) out.push({ id: `sq-${k}`, grade: 'easy', defs: [DEFS.sq], statement: `forall n : nat, sq n + ${k} * n = n * (n + ${k})`, proof: 'intros; unfold sq; ring.' });
  return out;
}

function medium(): HammerStatement[] {
  const out: HammerStatement[] = [];
  for (const k of range(6)) {
    out.push({ id: `applen-${k}`, grade: 'medium', defs: [], statement: `forall (l1 l2 : list nat), length (l1 ++ ${k} :: l2) = S (length l1 + length l2)`, proof: 'intros; rewrite app_length; simpl; lia.' });
  }
  for (const k of range(6)) {
    out.push({ id: `revlen-${k}`, grade: 'medium', defs: [], statement: `forall (l : list nat), length (rev (l ++ [${k}])) = S (length l)`, proof: 'intros; rewrite rev_length, app_length; simpl; lia.' });
  }
  for (const k of range(5)) {
    out.push({ id: `maplen-${k}`, grade: 'medium', defs: [], statement: `forall (l : list nat), length (map (fun x => x + ${k}) (l ++ l)) = 2 * length l`, proof: 'intros; rewrite map_length, app_length; lia.' });
  }
  for (const k of range(5)) {
    out.push({ id: `snoc-${k}`, grade: 'medium', defs: [DEFS.snoc], statement: `forall (l : list nat), length (snoc (snoc l ${k}) ${k + 1}) = length l + 2`, proof: 'intros; unfold snoc; rewrite !app_length; simpl; lia.' });
  }
  for (const k of range(5)) {
    out.push({ id: `revapp-${k}`, grade: 'medium', defs: [], statement: `forall (l : list nat), rev (l ++ [${k}]) = ${k} :: rev l`, proof: 'intros; rewrite rev_app_distr; reflexivity.' });
  }
  for (const k of range(5)) {
    out.push({ id: `in-${k}`, grade: 'medium', defs: [], statement: `forall (l1 l2 : list nat), In ${k} l1 -> In ${k} (l2 ++ l1)`, proof: 'intros; apply in_or_app; right; assumption.' });
  }
  for (const k of range(5)) {
    out.push({ id: `div-${k}`, grade: 'medium', defs: [], statement: `forall n : nat, Nat.divide ${k + 1} (${k + 1} * n + ${k + 1})`, proof: `intros; exists (n + 1); lia.` });
  }
  for (const k of range(5)) {
    out.push({ id: `le-trans-${k}`, grade: 'medium', defs: [], statement: `forall a b c : nat, a <= b -> b + ${k} <= c -> a + ${k} <= c`, proof: 'intros; lia.' });
  }
  for (const k of range(4)) {
    out.push({ id: `mapapp-${k}`, grade: 'medium', defs: [], statement: `forall (l1 l2 : list nat), map (fun x => x * ${k + 1}) (l1 ++ l2) = map (fun x => x * ${k + 1}) l1 ++ map (fun x => x * ${k + 1}) l2`, proof: 'intros; apply map_app.' });
  }
  for (const k of range(4)) {
    out.push({ id: `zabs-${k}`, grade: 'medium', defs: [], statement: `forall x : Z, (Z.abs x + ${k} >= ${k})%Z`, proof: 'intros; lia.' });
  }
  return out;
}

function hard(): HammerStatement[] {
  const out: HammerStatement[] = [];
  out.push({ id: 'sum-to-gauss', grade: 'hard', defs: [DEFS.sumTo], statement: 'forall n, 2 * sum_to n = n * (n + 1)', proof: 'induction n; simpl; [reflexivity | nia].' });
  for (const k of range(5)) out.push({ id: `sum-to-mono-${k}`, grade: 'hard', defs: [DEFS.sumTo], statement: `forall n, n <= sum_to (n + ${k - 1})`, proof: 'intros; induction n; simpl in *; lia.' });
  for (const k of range(5)) out.push({ id: `dbl-${k}`, grade: 'hard', defs: [DEFS.dbl], statement: `forall n, dbl (n + ${k}) = 2 * n + ${2 * k}`, proof: 'intros. assert (D : forall j, dbl j = j + j) by (induction j; simpl; lia). rewrite D; lia.' });
  out.push({ id: 'dbl-plus', grade: 'hard', defs: [DEFS.dbl], statement: 'forall n, dbl n = n + n', proof: 'induction n; simpl; lia.' });
  out.push({ id: 'sum-list-app', grade: 'hard', defs: [DEFS.sumList], statement: 'forall l1 l2, sum_list (l1 ++ l2) = sum_list l1 + sum_list l2', proof: 'induction l1; simpl; intros; [reflexivity | rewrite IHl1; lia].' });
  out.push({ id: 'sum-list-rev', grade: 'hard', defs: [DEFS.sumList], statement: 'forall l, sum_list (rev l) = sum_list l', proof: 'induction l; simpl; [reflexivity |]. assert (H : forall l1 l2, sum_list (l1 ++ l2) = sum_list l1 + sum_list l2) by (induction l1; simpl; intros; [reflexivity | rewrite IHl1; lia]). rewrite H; simpl; lia.' });
  for (const k of range(4)) out.push({ id: `sum-list-map-${k}`, grade: 'hard', defs: [DEFS.sumList], statement: `forall l, sum_list (map (fun x => x + ${k}) l) = sum_list l + ${k} * length l`, proof: 'induction l; simpl; lia.' });
  out.push({ id: 'count-app', grade: 'hard', defs: [DEFS.count], statement: 'forall x l1 l2, count x (l1 ++ l2) = count x l1 + count x l2', proof: 'induction l1; simpl; intros; [reflexivity | rewrite IHl1; lia].' });
  out.push({ id: 'count-le-length', grade: 'hard', defs: [DEFS.count], statement: 'forall x l, count x l <= length l', proof: 'induction l; simpl; [lia | destruct (Nat.eqb x a); lia].' });
  out.push({ id: 'my-rev-app', grade: 'hard', defs: [DEFS.myRev], statement: 'forall (A : Type) (l1 l2 : list A), my_rev (l1 ++ l2) = my_rev l2 ++ my_rev l1', proof: 'induction l1; simpl; intros; [rewrite app_nil_r; reflexivity | rewrite IHl1, app_assoc; reflexivity].' });
  out.push({ id: 'my-rev-length', grade: 'hard', defs: [DEFS.myRev], statement: 'forall (A : Type) (l : list A), length (my_rev l) = length l', proof: 'induction l; simpl; [reflexivity | rewrite app_length; simpl; lia].' });
  out.push({ id: 'my-rev-rev', grade: 'hard', defs: [DEFS.myRev], statement: 'forall (A : Type) (l : list A), my_rev l = rev l', proof: 'induction l; simpl; congruence.' });
  out.push({ id: 'rev-acc-spec', grade: 'hard', defs: [DEFS.revAcc], statement: 'forall (A : Type) (l acc : list A), rev_onto l acc = rev l ++ acc', proof: 'induction l; simpl; intros; [reflexivity | rewrite IHl, <- app_assoc; reflexivity].' });
  out.push({ id: 'rev-acc-nil', grade: 'hard', defs: [DEFS.revAcc], statement: 'forall (A : Type) (l : list A), rev_onto l [] = rev l', proof: 'intros. assert (H : forall l acc : list A, rev_onto l acc = rev l ++ acc) by (induction l0; simpl; intros; [reflexivity | rewrite IHl0, <- app_assoc; reflexivity]). rewrite H, app_nil_r; reflexivity.' });
  out.push({ id: 'rev-acc-length', grade: 'hard', defs: [DEFS.revAcc], statement: 'forall (A : Type) (l acc : list A), length (rev_onto l acc) = length l + length acc', proof: 'induction l; simpl; intros; [reflexivity | rewrite IHl; simpl; lia].' });
  out.push({ id: 'mirror-mirror', grade: 'hard', defs: [DEFS.tree, DEFS.mirror], statement: 'forall t, mirror (mirror t) = t', proof: 'induction t; simpl; congruence.' });
  out.push({ id: 'size-mirror', grade: 'hard', defs: [DEFS.tree, DEFS.size, DEFS.mirror], statement: 'forall t, size (mirror t) = size t', proof: 'induction t; simpl; lia.' });
  out.push({ id: 'leaves-size', grade: 'hard', defs: [DEFS.tree, DEFS.size, DEFS.leaves], statement: 'forall t, leaves t = size t + 1', proof: 'induction t; simpl; lia.' });
  out.push({ id: 'leaves-mirror', grade: 'hard', defs: [DEFS.tree, DEFS.mirror, DEFS.leaves], statement: 'forall t, leaves (mirror t) = leaves t', proof: 'induction t; simpl; lia.' });
  for (const k of range(4)) out.push({ id: `evenb-${k}`, grade: 'hard', defs: [DEFS.evenb], statement: `forall n, evenb (n + n + ${2 * k}) = true`, proof: `intros. assert (E : forall m, evenb (m + m) = true) by (induction m; [reflexivity | replace (S m + S m) with (S (S (m + m))) by lia; simpl; exact IHm]). replace (n + n + ${2 * k}) with ((n + ${k}) + (n + ${k})) by lia. apply E.` });
  out.push({ id: 'evenb-dbl', grade: 'hard', defs: [DEFS.evenb, DEFS.dbl], statement: 'forall n, evenb (dbl n) = true', proof: 'induction n; simpl; auto.' });
  out.push({ id: 'sum-acc-spec', grade: 'hard', defs: [DEFS.sumAcc, DEFS.sumList], statement: 'forall l acc, sum_acc l acc = acc + sum_list l', proof: 'induction l; simpl; intros; [lia | rewrite IHl; lia].' });
  out.push({ id: 'sum-acc-zero', grade: 'hard', defs: [DEFS.sumAcc, DEFS.sumList], statement: 'forall l, sum_acc l 0 = sum_list l', proof: 'intros. assert (H : forall l acc, sum_acc l acc = acc + sum_list l) by (induction l0; simpl; intros; [lia | rewrite IHl0; lia]). rewrite H; lia.' });
  out.push({ id: 'pow2-pos', grade: 'hard', defs: [DEFS.pow2], statement: 'forall n, pow2 n > 0', proof: 'induction n; simpl; lia.' });
  out.push({ id: 'pow2-add', grade: 'hard', defs: [DEFS.pow2], statement: 'forall n m, pow2 (n + m) = pow2 n * pow2 m', proof: 'induction n; simpl; intros; [lia | rewrite IHn; lia].' });
  out.push({ id: 'pow2-ge', grade: 'hard', defs: [DEFS.pow2], statement: 'forall n, n < pow2 n', proof: 'induction n; simpl; lia.' });
  out.push({ id: 'snoc-rev', grade: 'hard', defs: [DEFS.snoc], statement: 'forall (l : list nat) (x : nat), rev (snoc l x) = x :: rev l', proof: 'intros; unfold snoc; rewrite rev_app_distr; reflexivity.' });
  out.push({ id: 'fold-left-sum', grade: 'hard', defs: [DEFS.sumList], statement: 'forall l a, fold_left Nat.add l a = a + sum_list l', proof: 'induction l; simpl; intros; [lia | rewrite IHl; lia].' });
  out.push({ id: 'fold-right-sum', grade: 'hard', defs: [DEFS.sumList], statement: 'forall l, fold_right Nat.add 0 l = sum_list l', proof: 'induction l; simpl; congruence.' });
  out.push({ id: 'map-id-length', grade: 'hard', defs: [DEFS.sumList], statement: 'forall l, sum_list (map (fun x => 2 * x) l) = 2 * sum_list l', proof: 'induction l; simpl in *; lia.' });
  out.push({ id: 'sum-to-le', grade: 'hard', defs: [DEFS.sumTo], statement: 'forall n m, n <= m -> sum_to n <= sum_to m', proof: 'intros n m H; induction H; simpl; lia.' });
  out.push({ id: 'count-rev', grade: 'hard', defs: [DEFS.count], statement: 'forall x l, count x (rev l) = count x l', proof: 'intros. assert (H : forall l1 l2, count x (l1 ++ l2) = count x l1 + count x l2) by (induction l1; simpl; intros; [reflexivity | rewrite IHl1; lia]). induction l; simpl; [reflexivity | rewrite H; simpl; rewrite IHl; lia].' });
  out.push({ id: 'dbl-mono', grade: 'hard', defs: [DEFS.dbl], statement: 'forall n m, n <= m -> dbl n <= dbl m', proof: 'intros n m H. assert (D : forall k, dbl k = k + k) by (induction k; simpl; lia). rewrite !D; lia.' });
  out.push({ id: 'sum-to-dbl', grade: 'hard', defs: [DEFS.sumTo, DEFS.dbl], statement: 'forall n, sum_to n + sum_to n = n * (n + 1)', proof: 'induction n; simpl; nia.' });
  out.push({ id: 'sum-list-snoc', grade: 'hard', defs: [DEFS.sumList], statement: 'forall l x, sum_list (l ++ [x]) = sum_list l + x', proof: 'induction l; simpl; intros; [lia | rewrite IHl; lia].' });
  out.push({ id: 'count-snoc', grade: 'hard', defs: [DEFS.count], statement: 'forall x l, count x (l ++ [x]) = S (count x l)', proof: 'induction l; simpl; [rewrite Nat.eqb_refl; reflexivity | rewrite IHl; lia].' });
  out.push({ id: 'leaves-pos', grade: 'hard', defs: [DEFS.tree, DEFS.leaves], statement: 'forall t, leaves t >= 1', proof: 'induction t; simpl; lia.' });
  out.push({ id: 'size-node', grade: 'hard', defs: [DEFS.tree, DEFS.size], statement: 'forall l n r, size (Node l n r) > size l', proof: 'intros; simpl; lia.' });
  return out;
}

export const HAMMER_STATEMENTS: readonly HammerStatement[] = [...easy(), ...medium(), ...hard()];
