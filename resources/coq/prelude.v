(* Arbor's Coq prelude: loaded before every proof and embedded verbatim in every reproduction script. *)
From Coq Require Import Arith Lia List Bool ZArith.
From Hammer Require Import Tactics.
Import ListNotations.

(* Closes easy goals outright; never leaves a goal half-done. *)
Ltac arbor_solve := solve [ reflexivity | assumption | discriminate | congruence | lia | auto ].

(* CRUSH: introduce, simplify, split the propositional structure, then close what is easy.
   Leaves the goals it cannot close, simplified. *)
Ltac arbor_crush := intros; simpl in *; try subst; intuition (try arbor_solve).

(* CRUSH's fallback when arbor_crush runs out of time (seed 000's clarsimp; rule conj+). *)
Ltac arbor_weak := intros; simpl in *; repeat split.
