import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * The assumption judge's pipelined `Print Assumptions` (coq-session.ts `assumptionsOfAll`) defines a throw-away
 * `arbor_joint_closure` and asks about it in one exchange. A document may own that name first.
 */

describe('a document that owns the judge\'s throw-away name', () => {
  const { session } = useRealShell(['--timeout', '20']);

  for (const [name, define] of [
    ['a closed definition', 'Definition arbor_joint_closure : unit := tt.'],
    ['a module of that name', 'Module arbor_joint_closure. End arbor_joint_closure.'],
  ] as const) {
    it(`${name}: an axiom-using proof is still judged by its axioms`, async () => {
      const rs: ShellResponse[] = await session([
        `DEFINE ${q(`Require Import Coq.Logic.Classical_Prop. ${define}`)}`,
        `GOAL ${q('forall P : Prop, ~ ~ P -> P')}`,
        'APPLY (exact NNPP)',
        'END',
      ]);
      expect(rs.slice(0, 3).map((r) => r.ERR), 'the document runs').toEqual(['', '', '']);
      const end = rs.at(-1);
      const assumptions = JSON.stringify(end?.ASSUMPTIONS ?? []);
      const refusedOrListed = (end?.ERR ?? '') !== '' || /classic/.test(assumptions);
      expect(refusedOrListed, JSON.stringify(rs.map((r) => [r.ERR, r.ASSUMPTIONS]))).toBe(true);
    }, 180_000);
  }

  it('HAMMER\'s tactics redefined as no-ops (lia, sauto, hauto) never make 0 = 1 proved', async () => {
    const rs: ShellResponse[] = await session([
      `DEFINE ${q('Ltac lia := idtac. Ltac sauto := idtac. Ltac hauto := idtac.')}`,
      `GOAL ${q('0 = 1')}`,
      'HAMMER',
      'END',
    ]);
    expect(rs[0]?.ERR, 'the redefinitions are accepted').toBe('');
    const end = rs.at(-1);
    expect(end?.ERR, JSON.stringify(rs.map((r) => r.ERR))).not.toBe('');
  }, 300_000);
});
