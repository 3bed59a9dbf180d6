import { describe, expect, it, vi } from 'vitest';
import type { CoqideTopClient} from './coqidetop-client.ts';
import { CoqFailure, CoqTimeout } from './coqidetop-client.ts';
import { printedAll, printedAllQueries, readPrintedAll, rememberPrintedAll } from './printed-all.ts';
import { typeFromCheck } from './statement-reading.ts';
import { useRealClient } from './testing/real-client.ts';

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

/** Every exchange the client sends from now on (the calls of each), until `spy.mockRestore()`. */
function recordExchanges(c: CoqideTopClient): { sent: string[][]; spy: { mockRestore(): void } } {
  const sent: string[][] = [];
  const original = c.batchSettled.bind(c);
  const spy = vi.spyOn(c, 'batchSettled').mockImplementation((...args) => {
    sent.push(args[0]);
    return original(...args);
  });
  return { sent, spy };
}

/**
 * END's `Qed` and the `Print`/`Check` its judges read, in one exchange (`addAndGoalsThen`), and END's two
 * `Locate` batches joined (`queryJoined`), with real coqidetop: a refused Qed is refused exactly as before
 * and leaves nothing behind; an accepted one gives the same answers `printedAll` would.
 */
describe('Qed with its read-back in one exchange (real coqidetop)', () => {
  const client = useRealClient({ plugin: true });

  it('a refused Qed throws as addAndGoals does; going back leaves a working session', async () => {
    const c = client();
    const before = c.tip;
    await c.addAndGoals('Theorem t : 1 + 1 = 2.');
    const open = c.tip;
    const { sentence, queries } = printedAllQueries(c, 't');
    // With the plugin nothing is added after Qed: the queries run at the Qed's own state.
    expect(sentence).toBeUndefined();
    const err = await c.addAndGoalsThen('Qed.', sentence, queries, 30_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoqFailure);
    expect((err as CoqFailure).message).toMatch(/incomplete|unfinished|not.*complete|Attempt to save/i);
    await c.editAt(open);
    await c.addAndGoals('reflexivity.');
    const { sent, spy } = recordExchanges(c);
    const { added, answers } = await c.addAndGoalsThen('Qed.', sentence, queries, 30_000).finally(() => spy.mockRestore());
    // One exchange: Add, Goal, the query — no `Set Printing All` state and no Edit_at back.
    expect(sent.map((x) => x.map((call) => /<call val="(\w+)"/.exec(call)?.[1]))).toEqual([['Add', 'Goal', 'Query']]);
    expect(added.goals).toBeUndefined();
    expect(c.tip).toBe(added.stateId);
    expect(answers).toHaveLength(1);
    const read = readPrintedAll(answers ?? [], true);
    // The plugin's notice (the theorem, then the globals its kernel term mentions) first, then the statement as
    // `Set Printing All` prints it (nothing printed as a notation), then what its printed names locate to.
    expect(read?.references?.split('\n')).toEqual(['Constant Top.t', 'Constructor Coq.Init.Logic.eq_refl', 'Constructor Coq.Init.Datatypes.S', 'Constructor Coq.Init.Datatypes.O', 'Inductive Coq.Init.Logic.eq', 'Inductive Coq.Init.Datatypes.nat', 'Constant Coq.Init.Nat.add']);
    expect(read?.statement).toBe('@eq nat (Nat.add (S O) (S O)) (S (S O))');
    expect(Object.fromEntries(read?.names ?? [])).toEqual({ eq: 'Coq.Init.Logic.eq', nat: 'Coq.Init.Datatypes.nat', 'Nat.add': 'Coq.Init.Nat.add', S: 'Coq.Init.Datatypes.S', O: 'Coq.Init.Datatypes.O' });
    // The same answers the slow way: `Check` under `Set Printing All`, `Locate Term` of every printed name.
    rememberPrintedAll(c, 't', answers ?? []);
    const remembered = await printedAll(c, 't', 30_000);
    expect(remembered.statement).toBe(read?.statement);
    const slow = await c.queriesAfter('Set Printing All.', ['Arbor_references t.', 'Check t.', ...[...(read?.names.keys() ?? [])].map((n) => `Locate Term ${n}.`)]);
    expect(read?.references).toBe(notices(slow[0] ?? []));
    expect(typeFromCheck(notices(slow[1] ?? []))).toBe(read?.statement);
    expect(slow.slice(2).map((m) => notices(m).split('\n')[0]?.split(/\s+/)[1])).toEqual([...(read?.names.values() ?? [])]);
    // The session goes on from the Qed's state.
    expect(notices(await c.query('Check t.'))).toMatch(/1 \+ 1 = 2/);
    await c.editAt(before);
  }, 120_000);

  it('the reading asks one more time, one query each, when its answer is not as expected', () => {
    const n = (text: string): { level: string; text: string } => ({ level: 'notice', text });
    // Without the plugin: the references, then Check's.
    expect(readPrintedAll([[n('p'), { level: 'warning', text: 'w' }, n('c\n     : True')]], false)).toEqual({ references: 'p', statement: 'True', names: new Map() });
    expect(readPrintedAll([[n('p')]], false)).toBeUndefined();
    expect(readPrintedAll([[n('p'), n('q'), n('c')]], false)).toBeUndefined();
    expect(readPrintedAll([[n('p')], [n('c')]], false)).toBeUndefined();
    // With it: the references, the statement, its names, its kernel term.
    const kernel = n('Kernel\n(ind "Coq.Init.Logic.True" 0)');
    expect(readPrintedAll([[n('p'), n('True'), n('Names\nTrue Inductive Coq.Init.Logic.True'), kernel]], true)).toEqual({ references: 'p', statement: 'True', names: new Map([['True', 'Coq.Init.Logic.True']]), kernel: '(ind "Coq.Init.Logic.True" 0)' });
    expect(readPrintedAll([[n('p'), n('True'), n('Names'), kernel]], true)?.names.size).toBe(0);
    expect(readPrintedAll([[n('p'), n('True'), n('Names\nTrue Inductive Coq.Init.Logic.True')]], true)).toBeUndefined();
    expect(readPrintedAll([[n('p'), n('True'), n('True Inductive Coq.Init.Logic.True'), kernel]], true)).toBeUndefined();
    expect(readPrintedAll([[n('p'), n('True'), n('Names\nTrue is Coq.Init.Logic.True'), kernel]], true)).toBeUndefined();
    expect(readPrintedAll([[n('p'), n('True'), n('Names'), n('Kernel\nnot a term')]], true)).toBeUndefined();
  });

  it('queries asked in the same turn travel together, each with its own answer or failure', async () => {
    const c = client();
    const [a, b] = await Promise.allSettled([c.queryJoined('Locate Term nat.'), c.queryJoined('Check no_such_name.')]);
    expect(a.status === 'fulfilled' && notices(a.value)).toMatch(/Inductive Coq\.Init\.Datatypes\.nat/);
    expect(b.status === 'rejected' && String(b.reason)).toMatch(/no_such_name/);
    expect(notices(await c.queryJoined('Locate Term S.'))).toMatch(/Constructor Coq\.Init\.Datatypes\.S/);
  }, 60_000);

  it('queries of one-notice commands asked in the same turn at one state travel as one query, each with its own notices', async () => {
    const c = client();
    const { sent, spy } = recordExchanges(c);
    try {
      const [a, b] = await Promise.all([c.queryCommandsJoined('Locate Term nat. Locate Term S.', 2), c.queryCommandsJoined('Check true.', 1)]);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toHaveLength(1);
      expect(sent[0]?.[0]).toContain('Locate Term nat. Locate Term S. Check true.');
      expect(a.map((m) => m.text)).toEqual([expect.stringMatching(/Inductive Coq\.Init\.Datatypes\.nat/), expect.stringMatching(/Constructor Coq\.Init\.Datatypes\.S/)]);
      expect(b.map((m) => m.text)).toEqual([expect.stringMatching(/^true\s*: bool$/)]);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);

  it('a joint query that does not line up, or fails, is asked again query by query: each gets its own answer or failure', async () => {
    const c = client();
    // Miscounted: `Check true. Check S.` said to print one notice. Failing: an unknown name fails the joint query.
    const [miscounted, fine, failing] = await Promise.allSettled([
      c.queryCommandsJoined('Check true. Check S.', 1),
      c.queryCommandsJoined('Locate Term nat.', 1),
      c.queryCommandsJoined('Check no_such_name_at_all.', 1),
    ]);
    expect(miscounted.status === 'fulfilled' && notices(miscounted.value)).toMatch(/^true\s*: bool\nS\s*: nat -> nat$/);
    expect(fine.status === 'fulfilled' && notices(fine.value)).toMatch(/^Inductive Coq\.Init\.Datatypes\.nat$/);
    expect(failing.status === 'rejected' && String(failing.reason)).toMatch(/no_such_name_at_all/);
    // Queries at different states never share one: each is Coq's answer at its own state.
    const before = c.tip;
    await c.addAndGoals('Definition only_later := 1.');
    const [early, late] = await Promise.all([c.queryCommandsJoined('Locate only_later.', 1, before), c.queryCommandsJoined('Locate only_later.', 1)]);
    expect(notices(early)).toMatch(/No object/);
    expect(notices(late)).toMatch(/Constant Top\.only_later/);
    await c.editAt(before);
  }, 60_000);

  it('a joint query past its time limit fails every query in it once (no query asked again)', async () => {
    const c = client();
    const { sent, spy } = recordExchanges(c);
    try {
      // Nine million reduction steps by cbv: seconds, far past the 300 ms limit.
      const [slow, quick] = await Promise.allSettled([c.queryCommandsJoined('Eval cbv in (Nat.iter 3000 (fun _ => Nat.iter 3000 negb true) true).', 1, c.tip, 300), c.queryCommandsJoined('Locate Term nat.', 1, c.tip, 300)]);
      expect(slow.status === 'rejected' && slow.reason).toBeInstanceOf(CoqTimeout);
      expect(quick.status === 'rejected' && quick.reason).toBeInstanceOf(CoqTimeout);
      expect(sent).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    // The session still answers.
    expect(notices(await c.queryCommandsJoined('Locate Term S.', 1))).toMatch(/Constructor Coq\.Init\.Datatypes\.S/);
  }, 60_000);
});
