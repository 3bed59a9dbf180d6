(* Arbor's Coq prelude for a document that asked for Coq's bare environment (Init only, as coqc gives a
   .v file) or a named library set. The libraries behind Arbor's tactics are loaded, never imported:
   their names and notations stay out of the document's namespace; only tactics are imported. *)
Require Coq.micromega.Lia Hammer.Tactics.Tactics.
(* Tactics only: lia, nia. *)
Import Coq.micromega.Lia.
(* Tactics only (sauto, hauto, …), their hint database shints and one definition, Hammer.Tactics.Tactics.rdone. *)
Import Hammer.Tactics.Tactics.

(* Closes easy goals outright; never leaves a goal half-done. *)
Ltac arbor_solve := solve [ reflexivity | assumption | discriminate | congruence | lia | auto ].

(* CRUSH: introduce, simplify, split the propositional structure, then close what is easy.
   Leaves the goals it cannot close, simplified. *)
Ltac arbor_crush := intros; simpl in *; try subst; intuition (try arbor_solve).

(* CRUSH's fallback when arbor_crush runs out of time (seed 000's clarsimp; rule conj+). *)
Ltac arbor_weak := intros; simpl in *; repeat split.
