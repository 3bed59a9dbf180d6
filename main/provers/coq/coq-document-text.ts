import type { ScriptItem } from '../../shell/prover-session.ts';
import { environmentPrelude } from './environments.ts';
import { afterEffect, blockEffect, closingSentences, type BlockEffect, type OpenBlock } from './document-blocks.ts';

/** Each declaration's block effects, kept per recorded script (its sentences never change; every finishing END renders them all again). */
const effects = new WeakMap<readonly string[], readonly BlockEffect[]>();
const effectsOf = (script: readonly string[]): readonly BlockEffect[] => {
  let known = effects.get(script);
  if (known === undefined) {
    known = script.map(blockEffect);
    effects.set(script, known);
  }
  return known;
};

/**
 * Text safe inside a Coq comment, on one line (Coq's message could hold `*)`, `(*` or a string quote that opens
 * one). A space goes after every `(` before a `*`, then after every `*` before a `)`: one pass over `(*)` would
 * leave `( *)`, which closes the comment.
 */
const inComment = (text: string): string => text.replace(/\s+/g, ' ').replace(/"/g, "'").replace(/\((?=\*)/g, '( ').replace(/\*(?=\))/g, '* ').slice(0, 300);

/** A channel's document as one `.v` file: Arbor's prelude, the preludes' sentences that ran, then each item (an open proof `Admitted`). */
export function coqDocumentText(preludes: readonly string[], items: readonly ScriptItem[], environment?: string): string {
  const channel = preludes.length === 0 ? [] : ['(* channel prelude *)', ...preludes, ''];
  const body = items.flatMap((item) => {
    if (item.kind === 'define') return [...item.script, ''];
    const end =
      item.openGoals > 0
        ? [`  (* ${item.openGoals} open goal${item.openGoals === 1 ? '' : 's'} *)`, 'Admitted.']
        : item.kernelRefused !== undefined
          ? [`  (* Coq's kernel refused Qed: ${inComment(item.kernelRefused)} *)`, 'Admitted.']
          : ['Qed.'];
    return [`Theorem ${item.name} : (${item.goal}).`, 'Proof.', ...item.steps.flat().map((s) => `  ${s}`), ...end, ''];
  });
  // A document read inside a section or module: closed at the end, as coqc wants. What is open is Coq's answer after
  // the last declaration (proofs open nothing); the reading of the script's text only where Coq could not be asked.
  const lastDefine = items.findLast((i) => i.kind === 'define');
  const open = lastDefine?.kind === 'define' && lastDefine.openAfter !== undefined
    ? lastDefine.openAfter
    : items.reduce<OpenBlock[]>((blocks, i) => (i.kind === 'define' ? effectsOf(i.script).reduce(afterEffect, blocks) : blocks), []).map((b) => b.name);
  const closing = closingSentences(open);
  return [environmentPrelude(environment).trimEnd(), '', ...channel, ...body, ...closing].join('\n').replace(/\n+$/, '\n');
}
