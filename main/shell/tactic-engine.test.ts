import { describe, expect, it } from 'vitest';
import type { ContextEntry, OpenGoal } from '../../shared/proof-tree/proof-state.ts';
import type { Checkpoint, PrintMode, ProofStep, ProverSession, ScriptItem, StepOutcome } from './prover-session.ts';
import { ProverError } from './prover-session.ts';
import { END_SCRIPT_MAX, scriptOverCap } from './item-script.ts';
import { TacticEngine } from './tactic-engine.ts';

/**
 * A unit-test double of a prover session (never used by the product): goals are strings, `A /\ B` splits,
 * `hammer` proves anything without the word `hard`, and it records what it was sent.
 */
class ProverSessionDouble implements ProverSession {
  readonly backend = 'coq' as const;
  goalsNow: OpenGoal[] = [];
  sent: string[] = [];
  private states: OpenGoal[][] = [];
  crashNext = false;

  async start(goal: string): Promise<StepOutcome> {
    this.sent.push(`start ${goal}`);
    this.goalsNow = [{ context: [], goal }];
    return this.outcome([`Goal ${goal}.`]);
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    this.sent.push(`${step.kind} ${JSON.stringify(step)}`);
    if (this.crashNext) {
      this.crashNext = false;
      throw new ProverError('crashed', 'prover crashed: restarted');
    }
    const [first, ...rest] = this.goalsNow;
    if (!first) throw new ProverError('fail', 'no goals');
    const ctx = first.context;
    const add = (...e: ContextEntry[]): ContextEntry[] => [...ctx, ...e];
    let produced: OpenGoal[];
    switch (step.kind) {
      case 'have':
        produced = [{ context: ctx, goal: step.expr }, { context: add({ kind: 'hyp', name: step.name, text: step.expr }), goal: first.goal }];
        break;
      case 'obtain':
        produced = [
          { context: ctx, goal: `exists ${step.vars.join(' ')}, ${step.conds.map((c) => c.expr).join(' /\\ ')}` },
          { context: add(...step.vars.map((v) => ({ kind: 'var' as const, name: v, text: step.type ?? '_' })), ...step.conds.map((c) => ({ kind: 'hyp' as const, name: c.name, text: c.expr }))), goal: first.goal },
        ];
        break;
      case 'hammer':
        if (first.goal.includes('hard')) throw new ProverError('timeout', 'timeout');
        produced = [];
        break;
      case 'apply':
        if (step.tactic === 'split') {
          const parts = first.goal.split(' /\\ ');
          if (parts.length < 2) throw new ProverError('fail', 'fail');
          produced = parts.map((goal) => ({ context: ctx, goal }));
        } else if (step.tactic === 'intro') {
          const m = /^forall (\w+), (.*)$/.exec(first.goal);
          if (!m) throw new ProverError('fail', 'fail');
          produced = [{ context: add({ kind: 'var', name: m[1] as string, text: 'nat' }), goal: m[2] as string }];
        } else if (step.tactic === 'done') produced = [];
        else throw new ProverError('prover', `The reference ${step.tactic} was not found.`);
        break;
      default:
        throw new ProverError('fail', 'fail');
    }
    this.goalsNow = [...produced, ...rest];
    return this.outcome([`${step.kind}.`]);
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
    this.goalsNow = this.states[checkpoint as number] ?? [];
    this.states = this.states.slice(0, (checkpoint as number) + 1);
  }
  async goals(): Promise<OpenGoal[]> {
    return this.goalsNow;
  }
  async setPrintMode(_mode: PrintMode): Promise<void> {}
  renderScript(goal: string, steps: string[][], openGoals: number): string {
    return [`(* ${goal} *)`, ...steps.flat(), openGoals > 0 ? `Admitted. (* ${openGoals} open *)` : 'Qed.'].join('\n');
  }
  async dispose(): Promise<void> {}

  private outcome(script: string[]): StepOutcome {
    this.states.push(this.goalsNow);
    return { goals: this.goalsNow, script, checkpoint: this.states.length - 1 };
  }
}

const engineWith = (session: ProverSessionDouble): TacticEngine =>
  new TacticEngine({ backend: 'coq', timeoutMs: 1000, openSession: async () => session });

describe('TacticEngine', () => {
  it('numbers steps from GOAL and answers with the seed\'s state', async () => {
    const engine = engineWith(new ProverSessionDouble());
    const r = await engine.execute({ name: 'GOAL', expr: 'A /\\ B' });
    expect(r).toEqual({ response: { ctxt: { vars: [], hyps: [] }, goal: 'A /\\ B' }, error: '', step: 1, isState: true });
    const s = await engine.execute({ name: 'APPLY', tactic: 'split' });
    expect(s.step).toBe(2);
    expect(s.response).toEqual({ ctxt: { vars: [], hyps: [] }, goal: [{ ctxt: { vars: [], hyps: [] }, goal: 'A' }, { ctxt: { vars: [], hyps: [] }, goal: 'B' }] });
  });

  it('builds the state\'s JSON only when it is read, once (the workbench reads the tree instead)', async () => {
    const engine = engineWith(new ProverSessionDouble());
    const r = await engine.execute({ name: 'GOAL', expr: 'A' });
    expect(r.isState).toBe(true);
    expect(typeof Object.getOwnPropertyDescriptor(r, 'response')?.get).toBe('function');
    const first = r.response;
    expect(first).toEqual({ ctxt: { vars: [], hyps: [] }, goal: 'A' });
    expect(r.response).toBe(first);
    expect(JSON.stringify(r)).toBe('{"response":{"ctxt":{"vars":[],"hyps":[]},"goal":"A"},"error":"","step":1,"isState":true}');
  });

  it('runs the BRIEF\'s END/NEXT rules: one END per leaf, proved leaves stay until END', async () => {
    const engine = engineWith(new ProverSessionDouble());
    await engine.execute({ name: 'GOAL', expr: 'A /\\ B' });
    await engine.execute({ name: 'APPLY', tactic: 'split' });
    const proved = await engine.execute({ name: 'APPLY', tactic: 'done' });
    expect((proved.response as { goal: { goal: string }[] }).goal[0]?.goal).toBe('True');
    // A tactic on a proved leaf would hit the wrong prover goal: refused.
    expect((await engine.execute({ name: 'APPLY', tactic: 'done' })).error).toMatch(/^no goal/);
    const next = await engine.execute({ name: 'NEXT' });
    expect(next.response).toEqual({ ctxt: { vars: [], hyps: [] }, goal: 'B' });
    expect(next.script).toBeUndefined();
    const end = await engine.execute({ name: 'END' });
    expect(end.error).toBe('');
    expect(end.response).toEqual({ ctxt: { vars: [], hyps: [] }, goal: [] });
    expect(end.script).toContain('Qed.');
    expect((await engine.execute({ name: 'END' })).error).toBe('no goal');
  });

  it('gives HAVE its fact as a hypothesis of the goal and unnamed facts fresh names', async () => {
    const session = new ProverSessionDouble();
    const engine = engineWith(session);
    await engine.execute({ name: 'GOAL', expr: 'G' });
    const r = await engine.execute({ name: 'HAVE', expr: 'L' });
    expect(r.response).toEqual({
      ctxt: { vars: [], hyps: [] },
      goal: [{ ctxt: { vars: [], hyps: [] }, goal: 'L' }, { ctxt: { vars: [], hyps: [{ name: 'h1', expr: 'L' }] }, goal: 'G' }],
    });
    const end = await engine.execute({ name: 'END' });
    expect(end.response).toEqual({ ctxt: { vars: [], hyps: [{ name: 'h1', expr: 'L' }] }, goal: 'G' });
  });

  it('expands LET abbreviations in later terms', async () => {
    const session = new ProverSessionDouble();
    const engine = engineWith(session);
    await engine.execute({ name: 'GOAL', expr: 'G' });
    const let1 = await engine.execute({ name: 'LET', abbrev: '?x', term: 'sqrt 2' });
    expect(let1.step).toBe(2);
    await engine.execute({ name: 'HAVE', hypName: 'H', expr: '?x > 1 /\\ ?xy' });
    expect(session.sent.at(-1)).toContain('(sqrt 2) > 1 /\\\\ ?xy');
  });

  it('REVERT restores the abbreviations of the step it returns to', async () => {
    const session = new ProverSessionDouble();
    const engine = engineWith(session);
    await engine.execute({ name: 'GOAL', expr: 'G' });
    await engine.execute({ name: 'LET', abbrev: '?x', term: 'a' });
    const y = await engine.execute({ name: 'LET', abbrev: '?y', term: '?x + b' });
    await engine.execute({ name: 'LET', abbrev: '?x', term: 'c' });
    await engine.execute({ name: 'LET', abbrev: '?z', term: 'd' });
    await engine.execute({ name: 'HAVE', hypName: 'H', expr: '?x ?y ?z' });
    expect(session.sent.at(-1)).toContain('(c) ((a) + b) (d)');
    await engine.execute({ name: 'REVERT', step: y.step as number });
    await engine.execute({ name: 'HAVE', hypName: 'H', expr: '?x ?y ?z' });
    expect(session.sent.at(-1)).toContain('(a) ((a) + b) ?z');
    // A new proof starts with none.
    await engine.execute({ name: 'GOAL', expr: 'G2' });
    await engine.execute({ name: 'HAVE', hypName: 'H', expr: '?x' });
    expect(session.sent.at(-1)).toContain('"?x"');
  });

  it('keeps 20,000 LETs on one channel in memory linear in their number (no copy per LET)', async () => {
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = (): number => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const session = new ProverSessionDouble();
    const engine = engineWith(session);
    await engine.execute({ name: 'GOAL', expr: 'G' });
    const before = heap();
    const lets = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i++) {
        const r = await engine.execute({ name: 'LET', abbrev: `?a${i}`, term: `f ${i}` });
        if (r.error !== '') throw new Error(r.error);
      }
    };
    await lets(0, 10_000);
    const half = heap() - before;
    await lets(10_000, 20_000);
    const all = heap() - before;
    // Copying the map per LET held 20,000²/2 entries (gigabytes); shared, each LET is a few hundred bytes.
    expect(all).toBeLessThan(20_000 * 2048);
    expect(all).toBeLessThan(3 * Math.max(half, 1 << 20));
    await engine.execute({ name: 'HAVE', hypName: 'H', expr: '?a0 ?a19999' });
    expect(session.sent.at(-1)).toContain('(f 0) (f 19999)');
    await engine.execute({ name: 'REVERT', step: 2 + 5000 });
    await engine.execute({ name: 'HAVE', hypName: 'H', expr: '?a5000 ?a5001' });
    expect(session.sent.at(-1)).toContain('(f 5000) ?a5001');
    console.log(`20,000 LETs: heap +${(half / 1048576).toFixed(1)} MiB after 10,000, +${(all / 1048576).toFixed(1)} MiB after 20,000`);
  });

  it('answers a finishing END with the item\'s own script (and the theorems it names), capped; SCRIPT keeps the whole document', async () => {
    class DocumentSessionDouble extends ProverSessionDouble {
      pad = '';
      renderDocument(items: ScriptItem[]): string {
        return items.map((i) => (i.kind === 'proof' ? `Theorem ${i.name} : ${i.goal}. ${i.steps.flat().join(' ')}${this.pad} Qed.` : i.script.join(' '))).join('\n');
      }
    }
    const session = new DocumentSessionDouble();
    const engine = engineWith(session);
    const prove = async (name: string, goal: string): Promise<string | undefined> => {
      expect((await engine.execute({ name: 'GOAL', expr: goal, theoremName: name })).error).toBe('');
      const end = await engine.execute({ name: 'END' });
      expect(end.error).toBe('');
      return end.script;
    };
    expect(await prove('first', 'A')).toBe('Theorem first : A. Goal A. hammer. Qed.');
    expect(await prove('second', 'B')).toBe('Theorem second : B. Goal B. hammer. Qed.');
    // `third` names `first`: it comes along (a script checked alone needs it); `second` does not.
    expect(await prove('third', 'first -> C')).toBe('Theorem first : A. Goal A. hammer. Qed.\nTheorem third : first -> C. Goal first -> C. hammer. Qed.');
    const whole = await engine.execute({ name: 'SCRIPT' });
    expect(whole.response).toMatch(/Theorem first[\s\S]*Theorem second[\s\S]*Theorem third/);
    // Past the cap the END says so instead of sending it.
    session.pad = 'x'.repeat(END_SCRIPT_MAX);
    const big = await prove('fourth', 'D');
    expect(big).toBe(scriptOverCap(END_SCRIPT_MAX + 'Theorem fourth : D. Goal D. hammer. Qed.'.length));
    expect(big).toMatch(/send SCRIPT for the whole document's script/);
  });

  it('leaves the state unchanged on a failed command and reports the prover\'s message', async () => {
    const engine = engineWith(new ProverSessionDouble());
    await engine.execute({ name: 'GOAL', expr: 'hard' });
    const r = await engine.execute({ name: 'APPLY', tactic: 'nonsense' });
    expect(r).toEqual({ response: null, error: 'The reference nonsense was not found.', step: 1 });
    expect((await engine.execute({ name: 'END' })).error).toBe('timeout');
    expect((await engine.execute({ name: 'STATE' })).response).toEqual({ ctxt: { vars: [], hyps: [] }, goal: 'hard' });
  });

  it('REVERT restores step n and the next command is step n+1', async () => {
    const session = new ProverSessionDouble();
    const engine = engineWith(session);
    await engine.execute({ name: 'GOAL', expr: 'forall n, A /\\ B' });
    await engine.execute({ name: 'APPLY', tactic: 'intro' });
    await engine.execute({ name: 'APPLY', tactic: 'split' });
    const back = await engine.execute({ name: 'REVERT', step: 2 });
    expect(back.step).toBe(2);
    expect(back.response).toEqual({ ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [] }, goal: 'A /\\ B' });
    expect(session.goalsNow).toEqual([{ context: [{ kind: 'var', name: 'n', text: 'nat' }], goal: 'A /\\ B' }]);
    expect((await engine.execute({ name: 'APPLY', tactic: 'split' })).step).toBe(3);
    expect((await engine.execute({ name: 'REVERT', step: 9 })).error).toBe('bad step: 9 (1..3)');
  });

  it('answers commands before GOAL with no goal', async () => {
    const engine = engineWith(new ProverSessionDouble());
    for (const command of [{ name: 'END' }, { name: 'STATE' }, { name: 'SCRIPT' }, { name: 'HAVE', expr: 'x' }] as const) {
      expect((await engine.execute(command)).error).toBe('no goal');
    }
  });

  it('SCRIPT marks open goals of an unfinished proof', async () => {
    const engine = engineWith(new ProverSessionDouble());
    await engine.execute({ name: 'GOAL', expr: 'A /\\ B' });
    await engine.execute({ name: 'APPLY', tactic: 'split' });
    const r = await engine.execute({ name: 'SCRIPT' });
    expect(r.response).toBe('(* A /\\ B *)\nGoal A /\\ B.\napply.\nAdmitted. (* 2 open *)');
  });

  it('reports a crash and keeps serving', async () => {
    const session = new ProverSessionDouble();
    const engine = engineWith(session);
    await engine.execute({ name: 'GOAL', expr: 'A /\\ B' });
    session.crashNext = true;
    expect((await engine.execute({ name: 'APPLY', tactic: 'split' })).error).toBe('prover crashed: restarted');
    expect((await engine.execute({ name: 'APPLY', tactic: 'split' })).step).toBe(2);
  });
});
