import { describe, expect, it } from 'vitest';
import { ClosedConstants, type JudgeIO } from './closed-constants.ts';

/**
 * Unit test of how the assumption judge reads the plugin's answer (closed-constants.ts, `directReferences`),
 * against a test double of the session's coqidetop (the real-Coq cases are in closed-constants.test.ts and
 * arbor-plugin.test.ts): the globals listed are judged through their own `Print Assumptions`, once each; an
 * answer the judge cannot vouch for goes to Coq's own walk of the theorem.
 */
class CoqDouble implements JudgeIO {
  answer = '';
  /** What each global's `Print Assumptions` says (default: closed). */
  axioms: Record<string, string> = {};
  walked: string[] = [];
  joint: string[][] = [];

  async query(sentences: string): Promise<string[]> {
    return [...sentences.matchAll(/Print Assumptions (\S+)\./g)].map((m) => {
      const name = m[1] as string;
      this.walked.push(name);
      return this.axioms[name] ?? 'Closed under the global context';
    });
  }
  async references(): Promise<string> {
    return this.answer;
  }
  async assumptionsOfAll(fulls: readonly string[]): Promise<string> {
    this.joint.push([...fulls]);
    return fulls.some((f) => this.axioms[f] !== undefined) ? 'Axioms:\nsomething : False' : 'Closed under the global context';
  }
  async resolve(name: string): Promise<string> {
    return `Top.${name}`;
  }
  logLength(): number {
    return 3;
  }
}

describe('the plugin\'s answer, read by the assumption judge', () => {
  it('judges the listed globals once each: a later theorem that mentions an earlier one walks nothing again', async () => {
    const coq = new CoqDouble();
    const judge = new ClosedConstants(coq);
    coq.answer = 'Constant Top.t1\nInductive Coq.Init.Datatypes.nat\nConstant Coq.Init.Nat.add';
    expect((await judge.judge('t1', new Set())).ok).toBe(true);
    expect(coq.joint).toEqual([['Coq.Init.Datatypes.nat', 'Coq.Init.Nat.add']]);
    coq.answer = 'Constant Top.t2\nConstant Top.t1\nConstant Coq.Init.Nat.add';
    expect((await judge.judge('t2', new Set())).ok).toBe(true);
    expect(coq.joint).toHaveLength(1);
    expect(coq.walked).toEqual([]);
    expect(judge.stats.fallbacks).toBe(0);
  });

  it('an axiom among the globals is judged by its own walk: untrusted refused, trusted accepted', async () => {
    const coq = new CoqDouble();
    coq.axioms['Top.ax'] = 'Axioms:\nax : False';
    coq.axioms.t = 'Axioms:\nax : False';
    coq.answer = 'Constant Top.t\nConstant Top.ax';
    const refused = await new ClosedConstants(coq).judge('t', new Set());
    expect(refused.ok).toBe(false);
    // The refusal stands on the kernel reading: Coq's walk of the theorem is not asked to overrule it.
    expect(coq.walked).toEqual(['Top.ax']);
    coq.walked = [];
    expect((await new ClosedConstants(coq).judge('t', new Set(['Top.ax']))).ok).toBe(true);
  });

  for (const [why, answer] of [
    ['a primitive literal', 'Constant Top.t\nUnreadable'],
    ['another constant first', 'Constant Top.other\nInductive Coq.Init.Datatypes.nat'],
    ['an inductive first', 'Inductive Top.t\nUnreadable'],
    ['text that is no answer of the plugin', 'No proof in progress'],
    ['an empty answer', ''],
    ['a line with more than a kind and a path', 'Constant Top.t\nConstant Coq.Init.Nat.add extra'],
  ] as const) {
    it(`${why}: Coq's own Print Assumptions of the theorem decides`, async () => {
      const coq = new CoqDouble();
      coq.axioms.t = 'Axioms:\nax : False';
      coq.answer = answer;
      const judge = new ClosedConstants(coq);
      expect((await judge.judge('t', new Set())).ok).toBe(false);
      expect(coq.walked).toEqual(['t']);
      expect(judge.stats.fallbacks).toBe(1);
    });
  }

  it('a section variable and a bound module\'s global are walked by their names each time, never remembered', async () => {
    const coq = new CoqDouble();
    const judge = new ClosedConstants(coq);
    coq.answer = 'Constant Top.S.t\nVariable n\nConstant X.f (bound module)\nInductive Coq.Init.Datatypes.nat';
    expect((await judge.judge('t', new Set())).ok).toBe(true);
    expect((await judge.judge('t', new Set())).ok).toBe(true);
    expect(coq.walked).toEqual(['n', 'X.f', 'n', 'X.f']);
    expect(judge.stats.fallbacks).toBe(0);
  });

  it('no plugin (the query fails): Coq\'s own walk', async () => {
    const coq = new CoqDouble();
    coq.references = async () => {
      throw new Error('Syntax error: illegal begin of vernac.');
    };
    const judge = new ClosedConstants(coq);
    expect((await judge.judge('t', new Set())).ok).toBe(true);
    expect(coq.walked).toEqual(['t']);
  });
});
