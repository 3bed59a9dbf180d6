import type { PortfolioTactic } from './hammer-portfolio.ts';
import { smallValues, type ConstructorShape } from './instance-refutation.ts';

/**
 * Witnesses of any type the counterexample search can enumerate (issue 25, item 3/4): for `exists x : T, P`,
 * `{x : T | P}` or `{x : T & P}`, each small value of T — numbers, booleans, lists, options, pairs and the
 * document's own inductive types (instance-refutation.ts's `smallValues`, the same values a refutation
 * tries) — is offered as the witness, and the rest is computed and closed. The arithmetic witnesses
 * (`witnessTactics`) stay for `nat`; these reach goals whose witness is a constructor only the document's
 * functions tell apart, which `eexists` cannot find by unification.
 */
export interface Binder {
  name: string;
  type: string;
}

/** The first bound variable of an existential or sigma goal, as Coq prints it; undefined for any other goal. */
export function existentialBinder(goal: string): Binder | undefined {
  const g = goal.trim();
  const ex = /^exists\s+([\p{L}_][\p{L}\p{N}_']*)\s*:\s*/u.exec(g);
  if (ex) {
    const type = untilTopLevel(g.slice(ex[0].length), ',');
    return type === undefined ? undefined : { name: ex[1] as string, type };
  }
  const sig = /^\{\s*([\p{L}_][\p{L}\p{N}_']*)\s*:\s*/u.exec(g);
  if (sig) {
    const body = g.slice(sig[0].length);
    const type = untilTopLevel(body, '|') ?? untilTopLevel(body, '&');
    return type === undefined ? undefined : { name: sig[1] as string, type };
  }
  return undefined;
}

/** The text up to the first `stop` outside brackets, trimmed; undefined when there is none. */
function untilTopLevel(text: string, stop: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && ch === stop) {
      const t = text.slice(0, i).trim();
      return t === '' ? undefined : t;
    }
  }
  return undefined;
}

/** How many values are tried: each is one short Coq call. */
const MAX_WITNESSES = 12;

/**
 * One tactic per small value of the binder's type (none when the type has no values we can write). After the
 * witness the goal is computed and closed by the cheap closers (a conjunction split first).
 */
export function typedWitnessTactics(binder: Binder, inductives: ReadonlyMap<string, readonly ConstructorShape[]>): PortfolioTactic[] {
  const values = smallValues(binder.type, inductives) ?? [];
  const close = 'simpl; repeat split; solve [reflexivity | vm_compute; reflexivity | auto | lia | discriminate | congruence]';
  return values.slice(0, MAX_WITNESSES).map((v) => ({ stage: 'witness' as const, tactic: `solve [intros; exists (${v}); ${close}]`, secs: 1 }));
}
