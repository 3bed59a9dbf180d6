import { describe, expect, it } from 'vitest';
import { derivationNodes } from '../../shared/derivation/derivation.ts';
import type { DerivationNode } from '../../shared/derivation/derivation.ts';
import type { ContextEntry, OpenGoal } from '../../shared/proof-tree/proof-state.ts';
import type { ItemDerivation } from './channel-engine.ts';
import type { Checkpoint, DefineOutcome, FinishedProof, PrintMode, ProofStep, ProverSession, StepOutcome } from './prover-session.ts';
import { ProverError } from './prover-session.ts';
import { TacticEngine } from './tactic-engine.ts';
import { engineCommand } from './testing/engine-command.ts';

/**
 * A unit-test double of a document prover (never used by the product). Goals are strings; its tactics
 * change contexts the way Coq's do, which is what the derivation's record must follow exactly:
 * `split` splits `A /\ B`; HAVE adds its fact as Coq's `assert`; `intro` introduces `forall x, …` as a variable; `induction x` consumes the
 * variable `x` and makes a base case and a step case with `IHx` and a fresh `x0`; `simpl in *` rewrites
 * every hypothesis' `0 + ` away (same names, new texts); `clear H` drops H; `done`/hammer prove.
 */
class DocumentProverDouble implements ProverSession {
  readonly backend = 'coq' as const;
  private goalsNow: OpenGoal[] = [];
  private states: OpenGoal[][] = [];

  async start(goal: string): Promise<StepOutcome> {
    this.goalsNow = [{ context: [], goal }];
    return this.outcome();
  }

  async define(): Promise<DefineOutcome> {
    this.goalsNow = [];
    const { checkpoint, script } = this.outcome();
    return { checkpoint, script, declared: [{ name: 'f', type: 'nat', module: 'document' }] };
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    const [first, ...rest] = this.goalsNow;
    if (!first) throw new ProverError('fail', 'no goals');
    const ctx = first.context;
    let produced: OpenGoal[];
    const tactic = step.kind === 'apply' ? step.tactic : step.kind;
    const induction = /^induction (\w+)$/.exec(tactic);
    const clear = /^clear (\w+)$/.exec(tactic);
    if (step.kind === 'have') produced = [{ context: ctx, goal: step.expr }, { context: [...ctx, { kind: 'hyp', name: step.name, text: step.expr }], goal: first.goal }];
    else if (tactic === 'split') produced = first.goal.split(' /\\ ').map((goal) => ({ context: ctx, goal }));
    else if (tactic === 'intro') {
      const m = /^forall (\w+), (.*)$/.exec(first.goal);
      if (!m) throw new ProverError('fail', 'fail');
      produced = [{ context: [...ctx, { kind: 'var', name: m[1] as string, text: 'nat' }], goal: m[2] as string }];
    } else if (induction) {
      const x = induction[1] as string;
      const without = ctx.filter((e) => e.name !== x);
      const ih: ContextEntry = { kind: 'hyp', name: `IH${x}`, text: first.goal.replaceAll(x, `${x}0`) };
      produced = [
        { context: without, goal: first.goal.replaceAll(x, '0') },
        { context: [...without, { kind: 'var', name: `${x}0`, text: 'nat' }, ih], goal: first.goal.replaceAll(x, `S ${x}0`) },
      ];
    } else if (tactic === 'simpl in *') {
      produced = [{ context: ctx.map((e) => ({ ...e, text: e.text.replaceAll('0 + ', '') })), goal: first.goal.replaceAll('0 + ', '') }];
    } else if (clear) produced = [{ context: ctx.filter((e) => e.name !== clear[1]), goal: first.goal }];
    else if (tactic === 'done' || tactic === 'hammer') produced = [];
    else throw new ProverError('fail', 'fail');
    this.goalsNow = [...produced, ...rest];
    const outcome = this.outcome();
    return step.kind === 'hammer' ? { ...outcome, report: { closedWith: 'sauto', ms: 1, stages: [] } as unknown as StepOutcome['report'] } : outcome;
  }

  async finish(): Promise<FinishedProof> {
    return { assumptions: [], checkpoint: this.outcome().checkpoint };
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
    this.goalsNow = this.states[checkpoint as number] ?? [];
    this.states = this.states.slice(0, (checkpoint as number) + 1);
  }
  async goals(): Promise<OpenGoal[]> {
    return this.goalsNow;
  }
  async setPrintMode(_mode: PrintMode): Promise<void> {}
  renderScript(): string {
    return '';
  }
  renderDocument(): string {
    return '';
  }
  async dispose(): Promise<void> {}

  private outcome(): StepOutcome {
    this.states.push(this.goalsNow);
    return { goals: this.goalsNow, script: [], checkpoint: this.states.length - 1 };
  }
}

async function run(engine: TacticEngine, ...lines: string[]): Promise<void> {
  for (const line of lines) {
    const r = await engine.execute(engineCommand(line));
    if (r.error) throw new Error(`${line}: ${r.error}`);
  }
}

const derived = (engine: TacticEngine, query?: { item?: number; step?: number }): ItemDerivation => {
  const answer = engine.derivation(query);
  if ('unavailable' in answer) throw new Error(answer.unavailable);
  return answer;
};
const names = (n: DerivationNode): string[] => n.context.map((e) => e.name);

describe('the engine records the derivation', () => {
  it('keeps every item of a document, each at every step, and REVERT truncates it with the history', async () => {
    const engine = new TacticEngine({ backend: 'coq', timeoutMs: 1000, openSession: async () => new DocumentProverDouble() });
    await run(engine, 'GOAL one "A /\\ B"', 'APPLY split', 'APPLY done', 'END', 'END', 'DEFINE "Definition f := 1."', 'GOAL two "forall n, n = n"', 'APPLY intro', 'END');
    const items = derived(engine).items;
    expect(items.map((i) => [i.kind, i.name, i.firstStep, i.lastStep, i.finished])).toEqual([
      ['proof', 'one', 1, 5, true], ['define', undefined, 6, 6, true], ['proof', 'two', 7, 9, true],
    ]);
    // Item 0, after the whole document: its split, the goal `done` proved and END removed, and the one END hammered.
    const first = derived(engine, { item: 0 });
    expect(first.upTo).toBe(5);
    const root = first.root as DerivationNode;
    expect(root.action?.command).toBe('APPLY split');
    expect(root.children.map((c) => [c.goal, c.status, c.action?.command, c.closedBy?.command, c.closedBy?.with])).toEqual([
      ['A', 'closed', 'APPLY done', 'END', undefined], ['B', 'closed', 'END', 'END', 'sauto'],
    ]);
    expect(first.currentKey).toBeUndefined();
    // Item 0 at step 3: `A` proved (not yet removed) is the state's current goal.
    const mid = derived(engine, { item: 0, step: 3 });
    expect(derivationNodes(mid.root).map((n) => [n.key, n.status])).toEqual([['1.0', 'open'], ['2.0', 'proved'], ['2.1', 'open']]);
    expect(mid.currentKey).toBe('2.0');
    // A step finds its item; a declaration has no derivation.
    expect(derived(engine, { step: 8 }).item).toBe(2);
    expect(derived(engine, { step: 6 }).root).toBeUndefined();
    expect('unavailable' in engine.derivation({ item: 3 })).toBe(true);

    await run(engine, 'REVERT 3');
    expect(derived(engine).items.map((i) => i.lastStep)).toEqual([3]);
    expect(derivationNodes(derived(engine).root).map((n) => n.key)).toEqual(['1.0', '2.0', '2.1']);
    await run(engine, 'END', 'APPLY done', 'END');
    expect(derivationNodes(derived(engine).root).map((n) => n.status)).toEqual(['closed', 'closed', 'closed']);
  });

  it('shows each node\'s hypotheses exactly as the prover reported them there (induction, simpl in *, clear)', async () => {
    const engine = new TacticEngine({ backend: 'coq', timeoutMs: 1000, openSession: async () => new DocumentProverDouble() });
    await run(engine, 'GOAL "forall n, forall m, 0 + n = n + m"', 'APPLY intro', 'APPLY intro', 'HAVE H "0 + m = m"', 'APPLY done', 'END', 'APPLY induction n', 'APPLY simpl in *', 'APPLY clear H');
    const root = derived(engine).root as DerivationNode;
    const all = derivationNodes(root);
    const byAction = (command: string): DerivationNode => all.find((n) => n.action?.command === command) as DerivationNode;
    // The goal induction acted on has n; its cases do not (n is consumed), the step case has n0 and IHn once.
    const inductionNode = byAction('APPLY induction n');
    expect(names(inductionNode)).toEqual(['n', 'm', 'H']);
    const [base, stepCase] = inductionNode.children as [DerivationNode, DerivationNode];
    expect(names(base)).toEqual(['m', 'H']);
    expect(base.introduced).toEqual([]);
    // `simpl in *` replaced H's text under the same name: one H, with the new text, no stale copy.
    expect(base.action?.command).toBe('APPLY simpl in *');
    const simplified = base.children[0] as DerivationNode;
    expect(simplified.context).toEqual([{ kind: 'var', name: 'm', text: 'nat' }, { kind: 'hyp', name: 'H', text: 'm = m' }]);
    expect(simplified.introduced).toEqual(['H']);
    // `clear H` made a goal without H; the step case is still open and untouched.
    expect(names(simplified.children[0] as DerivationNode)).toEqual(['m']);
    expect(names(stepCase)).toEqual(['m', 'H', 'n0', 'IHn']);
    expect(stepCase.status).toBe('open');
    // Every node lists each name at most once.
    for (const n of all) expect(new Set(names(n)).size).toBe(names(n).length);
  });
});
