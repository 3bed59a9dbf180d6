import { describe, expect, it } from 'vitest';
import { documentNames } from './document-names.ts';

describe('documentNames', () => {
  it('lists the theorems and DEFINEd names above a line, not below it', () => {
    const lines = [
      'DEFINE "Fixpoint sum_list (l : list nat) : nat := match l with [] => 0 | x :: r => x + sum_list r end."',
      "GOAL sum_app' \"forall a b, sum_list (a ++ b) = sum_list a + sum_list b\"",
      '    APPLY (intros a b; induction a; simpl; lia)',
      'END',
      'GOAL later "True"',
    ];
    expect(documentNames(lines, 4)).toEqual([
      { name: 'sum_list', kind: 'definition', line: 1 },
      { name: "sum_app'", kind: 'theorem', line: 2 },
    ]);
  });

  it('takes names as the protocol parser reads them: unicode letters and primes, a channel number before GOAL', () => {
    const lines = [
      'DEFINE "Definition δ₁ := 1. Lemma αβ\' : True. Proof. exact I. Qed."',
      "3 GOAL λ' \"δ₁ = 1\"",
      'GOAL "no name"',
      'GOAL x',
    ];
    expect(documentNames(lines, 5)).toEqual([
      { name: 'δ₁', kind: 'definition', line: 1 },
      { name: "αβ'", kind: 'definition', line: 1 },
      { name: "λ'", kind: 'theorem', line: 2 },
    ]);
  });
});
