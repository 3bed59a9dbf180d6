import type { ContextEntry, OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { ProofStep, ProverSession, StepOutcome } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';

/**
 * TEST DOUBLE, for unit and e2e tests only (never the product): a symbolic "prover" that understands
 * just enough to drive the shell: HAVE/OBTAIN split goals, `APPLY split` splits on `/\`, `APPLY induction`
 * makes a base and a step case, `APPLY intros x y` moves binders into the context, HAMMER/CRUSH prove any
 * goal without `False`, `APPLY fail` fails, `APPLY sleep` runs until the session is disposed (a minute at
 * most): a long command that only a cancel ends, however loaded the machine is.
 */
export class TestDoubleProverSession implements ProverSession {
  readonly backend = 'coq' as const;
  readonly pid = undefined;
  private goalsNow: OpenGoal[] = [];
  readonly sent: string[] = [];

  private disposed: (() => void) | undefined;
  private readonly disposal = new Promise<void>((resolve) => { this.disposed = resolve; });

  constructor(private readonly delayMs = 0) {}

  async start(goal: string): Promise<StepOutcome> {
    this.sent.push(`start ${goal}`);
    this.goalsNow = [{ context: [], goal }];
    return this.outcome([]);
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    this.sent.push(`${step.kind} ${JSON.stringify(step)}`);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const [first, ...rest] = this.goalsNow;
    if (!first) throw new ProverError('fail', 'no goals');
    let produced: OpenGoal[];
    switch (step.kind) {
      case 'have':
        produced = [{ context: first.context, goal: step.expr }, { context: [...first.context, hyp(step.name, step.expr)], goal: first.goal }];
        break;
      case 'obtain': {
        const ex = `exists ${step.vars.join(' ')}, ${step.conds.map((c) => c.expr).join(' /\\ ')}`;
        produced = [{ context: first.context, goal: ex }, {
          context: [...first.context, ...step.vars.map((v): ContextEntry => ({ kind: 'var', name: v, text: step.type ?? 'nat' })), ...step.conds.map((c) => hyp(c.name, c.expr))],
          goal: first.goal,
        }];
        break;
      }
      case 'hammer':
      case 'crush':
        if (/False/.test(first.goal)) throw new ProverError('fail', 'fail');
        produced = [];
        break;
      case 'apply': {
        const t = step.tactic;
        if (t === 'fail') throw new ProverError('fail', 'fail');
        if (t === 'sleep') {
          await Promise.race([this.disposal, new Promise((r) => setTimeout(r, 60_000))]);
          produced = [first];
        } else if (t.startsWith('split')) {
          const parts = first.goal.split('/\\').map((p) => p.trim());
          if (parts.length < 2) throw new ProverError('fail', 'not a conjunction');
          produced = parts.map((goal) => ({ context: first.context, goal }));
        } else if (t.startsWith('induction')) {
          const v = t.split(/\s+/)[1] ?? 'n';
          produced = [
            { context: first.context, goal: first.goal.replace(new RegExp(`\\b${v}\\b`, 'g'), '0') },
            { context: [...first.context, { kind: 'var', name: v, text: 'nat' }, hyp('IH', first.goal)], goal: first.goal.replace(new RegExp(`\\b${v}\\b`, 'g'), `S ${v}`) },
          ];
        } else if (t.startsWith('intros')) {
          const names = t.split(/\s+/).slice(1);
          let goal = first.goal;
          const ctx = [...first.context];
          for (const n of names) {
            const m = /^forall\s+([^,]+),\s*(.*)$/.exec(goal);
            if (m) {
              ctx.push({ kind: 'var', name: n, text: 'nat' });
              goal = m[1]?.trim().split(/\s+/).length === 1 ? (m[2] ?? '') : `forall ${m[1]?.trim().split(/\s+/).slice(1).join(' ')}, ${m[2]}`;
            } else {
              const imp = /^(.*?)->\s*(.*)$/.exec(goal);
              if (!imp) throw new ProverError('fail', 'nothing to introduce');
              ctx.push(hyp(n, (imp[1] ?? '').trim()));
              goal = imp[2] ?? '';
            }
          }
          produced = [{ context: ctx, goal }];
        } else {
          produced = [{ context: first.context, goal: `${first.goal} ` }];
        }
        break;
      }
      default:
        produced = [first];
    }
    this.goalsNow = [...produced, ...rest];
    return this.outcome([`(* ${step.kind} *)`]);
  }

  async restore(checkpoint: unknown): Promise<void> {
    this.sent.push('restore');
    this.goalsNow = checkpoint as OpenGoal[];
  }

  async goals(): Promise<OpenGoal[]> {
    return this.goalsNow;
  }

  async setPrintMode(): Promise<void> {}

  renderScript(goal: string, steps: string[][], openGoals: number): string {
    return [`Goal ${goal}.`, ...steps.flat(), openGoals > 0 ? 'Admitted.' : 'Qed.'].join('\n');
  }

  async dispose(): Promise<void> {
    this.disposed?.();
  }

  private outcome(script: string[]): StepOutcome {
    return { goals: this.goalsNow, script, checkpoint: [...this.goalsNow] };
  }
}

function hyp(name: string, text: string): ContextEntry {
  return { kind: 'hyp', name, text };
}
