import type { HammerStatement } from './hammer-statements.ts';

/**
 * A held-out set for `bench:hammer --held-out`: statements written after HAMMER's stages were last changed
 * (2026-11-24), over definitions the main set does not have, and never used to tune a stage. The main set
 * guided the work on HAMMER (its misses were looked at); this one says how HAMMER does on statements nobody
 * tuned it for. Same grades, same rules (`--check` compiles the reference proofs, `Search`/`Locate` keep
 * library lemmas and names out).
 */
const DEFS = {
  len2: 'Fixpoint len2 {A : Type} (l : list A) : nat := match l with [] => 0 | _ :: t => S (len2 t) end.',
  app2: 'Fixpoint app2 {A : Type} (l m : list A) : list A := match l with [] => m | x :: t => x :: app2 t m end.',
  prodList: 'Fixpoint prod_list (l : list nat) : nat := match l with [] => 1 | x :: t => x * prod_list t end.',
  maxList: 'Fixpoint max_list (l : list nat) : nat := match l with [] => 0 | x :: t => Nat.max x (max_list t) end.',
  tri: 'Fixpoint tri (n : nat) : nat := match n with 0 => 0 | S k => tri k + S k end.',
  rep: 'Fixpoint rep (n x : nat) : list nat := match n with 0 => [] | S k => x :: rep k x end.',
  totList: 'Fixpoint tot_list (l : list nat) : nat := match l with [] => 0 | y :: t => y + tot_list t end.',
  nonzero: 'Fixpoint nonzero (l : list nat) : list nat := match l with [] => [] | x :: t => if Nat.eqb x 0 then nonzero t else x :: nonzero t end.',
  half: 'Fixpoint half (n : nat) : nat := match n with 0 => 0 | 1 => 0 | S (S k) => S (half k) end.',
  bt: 'Inductive bt := BL | BN (l : bt) (r : bt).',
  nodes: 'Fixpoint nodes (t : bt) : nat := match t with BL => 0 | BN l r => S (nodes l + nodes r) end.',
  swap: 'Fixpoint swap (t : bt) : bt := match t with BL => BL | BN l r => BN (swap r) (swap l) end.',
};

export const HELD_OUT_STATEMENTS: readonly HammerStatement[] = [
  // easy
  { id: 'ho-assoc', grade: 'easy', defs: [], statement: 'forall a b c : nat, a + (b + c) + 0 = c + b + a', proof: 'intros; lia.' },
  { id: 'ho-zdouble', grade: 'easy', defs: [], statement: 'forall x y : Z, (2 * x + y - y = x + x)%Z', proof: 'intros; lia.' },
  { id: 'ho-contra', grade: 'easy', defs: [], statement: 'forall P Q : Prop, (P -> Q) -> ~ Q -> ~ P', proof: 'tauto.' },
  { id: 'ho-app2-nil', grade: 'easy', defs: [DEFS.app2], statement: 'forall (l : list nat), app2 [] l = l', proof: 'reflexivity.' },
  { id: 'ho-tri-1', grade: 'easy', defs: [DEFS.tri], statement: 'forall x : nat, tri 1 + x = S x', proof: 'intros; simpl; lia.' },
  { id: 'ho-triple', grade: 'easy', defs: [], statement: 'forall n : nat, n * 3 = n + n + n', proof: 'intros; lia.' },
  { id: 'ho-bool', grade: 'easy', defs: [], statement: 'forall b1 b2 : bool, (b1 || b2) && negb b1 = b2 && negb b1', proof: 'intros [|] [|]; reflexivity.' },
  { id: 'ho-le-double', grade: 'easy', defs: [], statement: 'forall a b : nat, a <= b -> a * 2 <= b + b', proof: 'intros; lia.' },
  // medium: library lemmas, rewriting, witnesses; no induction
  { id: 'ho-rev-cons-len', grade: 'medium', defs: [], statement: 'forall (l : list nat) (x : nat), length (rev (x :: l)) = S (length l)', proof: 'intros; simpl; rewrite app_length, rev_length; simpl; lia.' },
  { id: 'ho-app-rev-len', grade: 'medium', defs: [], statement: 'forall (l m : list nat), length (m ++ rev l) = length l + length m', proof: 'intros; rewrite app_length, rev_length; lia.' },
  { id: 'ho-map-snoc', grade: 'medium', defs: [], statement: 'forall (l : list nat), map (fun x => x * 2) (l ++ [0]) = map (fun x => x * 2) l ++ [0]', proof: 'intros; rewrite map_app; reflexivity.' },
  { id: 'ho-divide', grade: 'medium', defs: [], statement: 'forall n : nat, Nat.divide 4 (8 * n + 12)', proof: 'intros; exists (2 * n + 3); lia.' },
  { id: 'ho-max-min', grade: 'medium', defs: [], statement: 'forall x y : nat, Nat.max x y >= Nat.min x y', proof: 'intros; lia.' },
  { id: 'ho-rep-len', grade: 'medium', defs: [DEFS.rep], statement: 'forall n x : nat, length (rep n x ++ rep n x) = length (rep n x) * 2', proof: 'intros; rewrite app_length; lia.' },
  { id: 'ho-rev-pair', grade: 'medium', defs: [], statement: 'forall (A : Type) (l : list A) (x y : A), rev (l ++ [x; y]) = y :: x :: rev l', proof: 'intros; rewrite rev_app_distr; reflexivity.' },
  { id: 'ho-zabs', grade: 'medium', defs: [], statement: 'forall z : Z, (Z.abs z * 2 >= z + z)%Z', proof: 'intros; lia.' },
  // hard: induction, or a lemma first
  { id: 'ho-len2-app2', grade: 'hard', defs: [DEFS.len2, DEFS.app2], statement: 'forall (A : Type) (l m : list A), len2 (app2 l m) = len2 l + len2 m', proof: 'intros A l m; induction l; simpl; congruence.' },
  { id: 'ho-len2-length', grade: 'hard', defs: [DEFS.len2], statement: 'forall (A : Type) (l : list A), len2 l = length l', proof: 'intros A l; induction l; simpl; congruence.' },
  { id: 'ho-prod-snoc', grade: 'hard', defs: [DEFS.prodList], statement: 'forall l, prod_list (l ++ [1]) = prod_list l', proof: 'induction l; simpl; [reflexivity | rewrite IHl; reflexivity].' },
  { id: 'ho-max-app', grade: 'hard', defs: [DEFS.maxList], statement: 'forall l1 l2, max_list (l1 ++ l2) = Nat.max (max_list l1) (max_list l2)', proof: 'induction l1; simpl; intros; [reflexivity | rewrite IHl1, Nat.max_assoc; reflexivity].' },
  { id: 'ho-half-double', grade: 'hard', defs: [DEFS.half], statement: 'forall n, half (n + n) = n', proof: 'induction n; simpl; [reflexivity | rewrite Nat.add_succ_r; simpl; congruence].' },
  { id: 'ho-nodes-swap', grade: 'hard', defs: [DEFS.bt, DEFS.nodes, DEFS.swap], statement: 'forall t : bt, nodes (swap t) = nodes t', proof: 'induction t; simpl; lia.' },
  { id: 'ho-tot-rep', grade: 'hard', defs: [DEFS.rep, DEFS.totList], statement: 'forall n x, tot_list (rep n x) = n * x', proof: 'induction n; simpl; intros; [reflexivity | rewrite IHn; lia].' },
  { id: 'ho-nonzero-idem', grade: 'hard', defs: [DEFS.nonzero], statement: 'forall l, nonzero (nonzero l) = nonzero l', proof: 'induction l; simpl; [reflexivity | destruct (Nat.eqb a 0) eqn:E; simpl; [assumption | rewrite E; congruence]].' },
  { id: 'ho-tot-rev', grade: 'hard', defs: [DEFS.totList], statement: 'forall l, tot_list (rev l) = tot_list l', proof: 'assert (H : forall l1 l2, tot_list (l1 ++ l2) = tot_list l1 + tot_list l2) by (induction l1; simpl; intros; [reflexivity | rewrite IHl1; lia]). induction l; simpl; [reflexivity | rewrite H; simpl; lia].' },
  { id: 'ho-tri-closed', grade: 'hard', defs: [DEFS.tri], statement: 'forall n, tri n + tri n = n * (n + 1)', proof: 'induction n; simpl; nia.' },
];
