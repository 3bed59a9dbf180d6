import { describe, expect, it } from 'vitest';
import { ClosedConstants, type JudgeIO } from './closed-constants.ts';

/**
 * Unit test of the kept `Locate Term` answers (closed-constants.ts, `Located`), against a test double of
 * the session's coqidetop (the real-Coq cases are in closed-constants.test.ts): a qualified name is asked
 * once while only proofs run, again after any declaration or a cut of the log, and never kept when its
 * qualifier is a suffix of the theorem's module.
 */
class CoqDouble implements JudgeIO {
  log = 0;
  /** Log lengths at which a declaration ended. */
  declarations: number[] = [];
  asked: string[] = [];
  where: Record<string, string> = { 'Z.add': 'Constant Coq.ZArith.BinInt.Z.add', 'B.c': 'Constant Top.B.c', nat: 'Inductive Coq.Init.Datatypes.nat' };
  module = 'Top';
  printed = '';

  /** The environment's objects as `Inspect` prints them, oldest first. */
  objects: string[] = [];

  async query(sentences: string): Promise<string[]> {
    return [...sentences.matchAll(/(Inspect 2|Check (\S+)|Locate Term (\S+))\./g)].map((m) => {
      if (m[1] === 'Inspect 2') return this.objects.slice(-2).join('');
      if (m[2] !== undefined) return `${m[2]}\n     : nat`;
      const n = m[3] as string;
      this.asked.push(n);
      return this.where[n] ?? (n.startsWith('t') ? `Constant ${this.module}.${n}` : `No object of basename ${n}`);
    });
  }
  async printAll(): Promise<string> {
    return this.printed;
  }
  async assumptionsOfAll(): Promise<string> {
    return 'Closed under the global context';
  }
  async resolve(): Promise<undefined> {
    return undefined;
  }
  logLength(): number {
    return this.log;
  }
  onlyProofsSince(length: number): boolean {
    return this.declarations.every((end) => end <= length);
  }
}

const theorem = async (coq: CoqDouble, judge: ClosedConstants, name: string, body: string): Promise<void> => {
  coq.log += 3; // Theorem, a tactic, Qed
  coq.objects.push(`${name} : nat`);
  coq.printed = `${name} = ${body}\n     : nat`;
  coq.asked = [];
  expect((await judge.judge(name, new Set())).ok).toBe(true);
};

describe('kept Locate answers (closed-constants.ts)', () => {
  it('asks a qualified name once while only proofs run; bare names every time', async () => {
    const coq = new CoqDouble();
    const judge = new ClosedConstants(coq);
    await theorem(coq, judge, 't1', 'fun x : nat => Z.add x x');
    expect(coq.asked).toEqual(['t1', 'x', 'nat', 'Z.add']);
    await theorem(coq, judge, 't2', 'fun y : nat => Z.add y y');
    // `nat` was answered along the stretch (only t2 was declared since): only the new names are asked.
    expect(coq.asked).toEqual(['t2', 'y']);
    expect(judge.stats.locatedKnown).toBe(2);
  });

  it('asks bare names again once the check shows an object besides the theorems', async () => {
    const coq = new CoqDouble();
    const judge = new ClosedConstants(coq);
    await theorem(coq, judge, 't1', 'fun x : nat => x');
    await theorem(coq, judge, 't2', 'fun x : nat => x');
    expect(coq.asked).toEqual(['t2']);
    // A proof that declared something of its own before its theorem (e.g. a scheme): the stretch ends.
    coq.objects.push('nat : Set');
    await theorem(coq, judge, 't3', 'fun x : nat => x');
    expect(coq.asked).toEqual(['t3', 'x', 'nat']);
    await theorem(coq, judge, 't4', 'fun x : nat => x');
    expect(coq.asked).toEqual(['t4']);
    // A cut of the log below the stretch's last theorem ends it too.
    judge.forgetAfter(coq.log - 1);
    await theorem(coq, judge, 't5', 'fun x : nat => x');
    expect(coq.asked).toEqual(['t5', 'x', 'nat']);
  });

  it('asks again after a declaration, and after the log was cut below the answer', async () => {
    const coq = new CoqDouble();
    const judge = new ClosedConstants(coq);
    await theorem(coq, judge, 't1', 'Z.add');
    coq.log += 1;
    coq.declarations.push(coq.log); // e.g. `Import` of a module with its own `Z.add`
    await theorem(coq, judge, 't2', 'Z.add');
    expect(coq.asked).toEqual(['t2', 'Z.add', 'nat']);
    judge.forgetAfter(2);
    await theorem(coq, judge, 't3', 'Z.add');
    expect(coq.asked).toEqual(['t3', 'Z.add', 'nat']);
  });

  it('never keeps a name whose qualifier ends the theorem\'s module path (a proof there may declare it)', async () => {
    const coq = new CoqDouble();
    coq.module = 'Top.X.B';
    const judge = new ClosedConstants(coq);
    await theorem(coq, judge, 't1', 'B.c');
    await theorem(coq, judge, 't2', 'B.c');
    expect(coq.asked).toEqual(['t2', 'B.c']);
    coq.module = 'Top.X';
    await theorem(coq, judge, 't3', 'B.c');
    await theorem(coq, judge, 't4', 'B.c');
    expect(coq.asked).toEqual(['t4']);
  });
});
