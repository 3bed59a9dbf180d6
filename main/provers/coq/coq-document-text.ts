import type { ScriptItem } from '../../shell/prover-session.ts';
import { arborPrelude } from './prelude.ts';

/** A channel's document as one `.v` file: Arbor's prelude, the preludes' sentences that ran, then each item (an open proof `Admitted`). */
export function coqDocumentText(preludes: readonly string[], items: readonly ScriptItem[]): string {
  const channel = preludes.length === 0 ? [] : ['(* channel prelude *)', ...preludes, ''];
  const body = items.flatMap((item) => {
    if (item.kind === 'define') return [...item.script, ''];
    const end = item.openGoals > 0 ? [`  (* ${item.openGoals} open goal${item.openGoals === 1 ? '' : 's'} *)`, 'Admitted.'] : ['Qed.'];
    return [`Theorem ${item.name} : (${item.goal}).`, 'Proof.', ...item.steps.flat().map((s) => `  ${s}`), ...end, ''];
  });
  return [arborPrelude().trimEnd(), '', ...channel, ...body].join('\n').replace(/\n+$/, '\n');
}
