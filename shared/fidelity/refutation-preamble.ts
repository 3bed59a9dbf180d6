/**
 * Helper lemmas and closing tactics every refutation file starts with (Coq 8.16). Each helper states one
 * connective rule so the generated proofs are a plain walk over the statement.
 */
export const refutationHelpers = `
Lemma arbor_nn : forall A : Prop, A -> ~ ~ A. Proof. tauto. Qed.
Lemma arbor_and_fl : forall A B : Prop, ~ A -> ~ (A /\\ B). Proof. tauto. Qed.
Lemma arbor_and_fr : forall A B : Prop, ~ B -> ~ (A /\\ B). Proof. tauto. Qed.
Lemma arbor_or_f : forall A B : Prop, ~ A -> ~ B -> ~ (A \\/ B). Proof. tauto. Qed.
Lemma arbor_imp_f : forall A B : Prop, A -> ~ B -> ~ (A -> B). Proof. tauto. Qed.
Lemma arbor_imp_tl : forall A B : Prop, ~ A -> (A -> B). Proof. tauto. Qed.
Lemma arbor_imp_tr : forall A B : Prop, B -> (A -> B). Proof. tauto. Qed.
Lemma arbor_iff_tt : forall A B : Prop, A -> B -> (A <-> B). Proof. tauto. Qed.
Lemma arbor_iff_ff : forall A B : Prop, ~ A -> ~ B -> (A <-> B). Proof. tauto. Qed.
Lemma arbor_iff_tf : forall A B : Prop, A -> ~ B -> ~ (A <-> B). Proof. tauto. Qed.
Lemma arbor_iff_ft : forall A B : Prop, ~ A -> B -> ~ (A <-> B). Proof. tauto. Qed.
`;

/** Closing tactics; defined after the model so `arbor_unfold` can name its definitions. */
export function refutationTactics(unfold: string[], timeoutS: number, hammerTimeoutS: number): string {
  const t = Math.max(1, Math.round(timeoutS));
  const h = Math.max(1, Math.round(hammerTimeoutS));
  const unfoldTac = unfold.length > 0 ? `cbv beta delta [${unfold.join(' ')}] in *` : 'idtac';
  return `Set Hammer ATPLimit ${t}.
Set Hammer ReconstrLimit ${t}.
Set Hammer GSMode 1.
Ltac arbor_unfold := ${unfoldTac}.
Ltac arbor_close := arbor_unfold; first [ exact I | solve [ reflexivity ] | solve [ discriminate ] | solve [ lia ] | solve [ easy ]
  | solve [ simpl; lia ] | solve [ vm_compute; reflexivity ] | solve [ intro; discriminate ] | solve [ simpl; intuition (try discriminate; try lia) ]
  | solve [ intro arbor_e; inversion arbor_e ] | solve [ cbv; intuition discriminate ] ].
Ltac arbor_auto := arbor_unfold; first [ solve [ timeout ${t} (intuition lia) ] | solve [ timeout ${t} (firstorder lia) ]
  | solve [ intros; simpl in *; timeout ${t} lia ] | solve [ timeout ${t} sauto ] | solve [ intros; timeout ${t} (simpl in *; intuition (try discriminate; try lia)) ]
  | solve [ timeout ${h} hammer ] ].
`;
}
