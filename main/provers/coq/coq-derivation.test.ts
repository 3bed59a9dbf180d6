import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivationNodes, stateLeaves } from '../../../shared/derivation/derivation.ts';
import type { DerivationNode } from '../../../shared/derivation/derivation.ts';
import { derivationNodeId, derivationToTreeView } from '../../../shared/derivation/derivation-view.ts';
import { accumulatedContext } from '../../../shared/proof-tree/tree-view-queries.ts';
import type { ContextEntry, Goal } from '../../../shared/proof-tree/proof-state.ts';
import type { ItemDerivation } from '../../shell/channel-engine.ts';
import { TacticEngine } from '../../shell/tactic-engine.ts';
import { engineCommand } from '../../shell/testing/engine-command.ts';
import { coqBackend } from './coq-backend.ts';

/**
 * The derivation the engine records, on real coqidetop: a document of 30 lemmas, each proved by
 * induction with `simpl in *` on both cases. Coq's `induction n` consumes `n` and re-states the
 * hypothesis `H` that mentions it in each case; `simpl in *` rewrites `H` under the same name (written `(simpl in * )`: the session refuses a trailing `*` and `*)`).
 */
const LEMMAS = 30;
const lemma = (i: number): string[] => [
  `GOAL lem_${i} "forall n m : nat, 0 + n + ${i} = m -> n + ${i} = 0 + m"`,
  'APPLY intros n m H', 'APPLY induction n', 'APPLY (simpl in * )', 'APPLY lia', 'END', 'APPLY (simpl in * )', 'APPLY lia', 'END',
];

let engine: TacticEngine;
/** Each step's state as Coq reported it (the response), by step. */
const states = new Map<number, Goal>();

beforeAll(async () => {
  engine = new TacticEngine({ backend: 'coq', timeoutMs: 20_000, openSession: () => coqBackend.open({ timeoutMs: 20_000 }) });
  for (let i = 1; i <= LEMMAS; i++) {
    for (const line of lemma(i)) {
      const r = await engine.execute(engineCommand(line));
      if (r.error) throw new Error(`lemma ${i}: ${line}: ${r.error}`);
      if (r.step !== undefined && r.response !== null) states.set(r.step, r.response as Goal);
    }
  }
}, 600_000);

afterAll(async () => {
  await engine?.dispose();
});

const derived = (query: { item?: number; step?: number }): ItemDerivation => {
  const answer = engine.derivation(query);
  if ('unavailable' in answer) throw new Error(answer.unavailable);
  return answer;
};
const names = (n: DerivationNode): string[] => n.context.map((e) => e.name);
/** A context as a set: the seed's state lists a bundle's shared entries first, so only its order differs from Coq's. */
const asSet = (context: readonly ContextEntry[] | undefined): string[] => (context ?? []).map((e) => `${e.kind} ${e.name} : ${e.text}`).sort();

describe('the recorded derivation on real Coq (30 lemmas)', () => {
  it('has the derivation of lemma 1, 15 and 30 at every one of their steps after the whole document', () => {
    const items = derived({}).items;
    expect(items).toHaveLength(LEMMAS);
    expect(items.every((it) => it.kind === 'proof' && it.finished)).toBe(true);
    for (const index of [0, 14, 29]) {
      const item = items[index];
      if (!item) throw new Error('missing item');
      expect(item.name).toBe(`lem_${index + 1}`);
      let previous = 0;
      for (let step = item.firstStep; step <= item.lastStep; step++) {
        const d = derived({ item: index, step });
        expect(d.upTo).toBe(step);
        const nodes = derivationNodes(d.root);
        // The tree grows with the steps (END adds no node), and the root is always the lemma's statement.
        expect(nodes.length).toBeGreaterThanOrEqual(previous);
        previous = nodes.length;
        expect(d.root?.goal).toContain(`${index + 1}`);
        // The state's current goal is marked unless the proof is finished.
        expect(d.currentKey !== undefined).toBe(step < item.lastStep);
      }
      const whole = derived({ item: index });
      expect(derivationNodes(whole.root).map((n) => n.status).every((s) => s === 'closed')).toBe(true);
      expect(derivationNodes(whole.root).map((n) => n.action?.command).filter(Boolean)).toEqual([
        'APPLY intros n m H', 'APPLY induction n', 'APPLY (simpl in * )', 'APPLY lia', 'APPLY (simpl in * )', 'APPLY lia',
      ]);
    }
  });

  it('lists at each node the hypotheses Coq reported there: after induction and simpl in *, none stale, none twice', () => {
    for (const index of [0, 14, 29]) {
      const item = derived({ item: index }).items[index];
      if (!item) throw new Error('missing item');
      const nodes = derivationNodes(derived({ item: index }).root);
      const inductionNode = nodes.find((n) => n.action?.command === 'APPLY induction n') as DerivationNode;
      // The two cases are the first two leaves of the state Coq reported after `induction n` (step 3 of the lemma).
      const afterInduction = stateLeaves(states.get(item.firstStep + 2) as Goal);
      expect(inductionNode.children.map((c) => asSet(c.context))).toEqual(afterInduction.slice(0, 2).map((l) => asSet(l.context)));
      expect(inductionNode.children.map((c) => c.goal)).toEqual(afterInduction.slice(0, 2).map((l) => l.goal));
      // n is consumed; H is re-stated in each case (in the step case next to n and IHn).
      const [base, stepCase] = inductionNode.children as [DerivationNode, DerivationNode];
      expect(names(base).sort()).toEqual(['H', 'm']);
      expect(names(stepCase)).toEqual(expect.arrayContaining(['m', 'n', 'IHn', 'H']));
      // `simpl in *` on the base case: the context Coq reported after it (step 4), H rewritten in place.
      const simplified = base.children[0] as DerivationNode;
      expect(asSet(simplified.context)).toEqual(asSet(stateLeaves(states.get(item.firstStep + 3) as Goal)[0]?.context));
      expect(simplified.context.find((e) => e.name === 'H')?.text).not.toContain('0 +');
      const stepSimplified = stepCase.children[0] as DerivationNode;
      expect(asSet(stepSimplified.context)).toEqual(asSet(stateLeaves(states.get(item.firstStep + 6) as Goal)[0]?.context));
      for (const n of nodes) expect(new Set(names(n)).size, `${n.key}: ${names(n).join(' ')}`).toBe(names(n).length);
      // What the inspector lists for a node of the drawn derivation is that node's context, not its ancestors' piled up.
      const view = derivationToTreeView(derived({ item: index }).root as DerivationNode);
      for (const n of nodes) expect(accumulatedContext(view, derivationNodeId(n.key))).toEqual(n.context);
    }
  });
});
