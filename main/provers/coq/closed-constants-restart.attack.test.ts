import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../process/process-manager.ts';
import { CoqSession } from './coq-session.ts';

/** Under the repo's .tmp/: files a sandboxed prover reads (the sandbox has no /tmp of the host). */
const TMP = fileURLToPath(new URL('../../../.tmp/', import.meta.url));

/**
 * A restart (coqidetop crashed, or was killed after a runaway tactic) replays the preludes and the log, and a
 * `Require` of the user's project then loads the library as it is on disk now: the user may have rebuilt it
 * meanwhile. The environment is then not the one END's kept answers were given in (closed-constants.ts):
 * a bare name kept as a bound variable along the verified stretch may now name the library's new constant,
 * and `Inspect 2` cannot see it (a library's objects are not the last two of the environment).
 */
describe('END after a restart that loaded a rebuilt project library (real coqidetop, coqc)', () => {
  let dir: string;
  const compile = async (text: string): Promise<void> => {
    await writeFile(join(dir, 'Lib.v'), text);
    const r = await runProcess({ program: 'coqc', args: ['-Q', '.', 'P', 'Lib.v'], cwd: dir, timeoutMs: 120_000, sandbox: { writable: [dir] } });
    if (r.exitCode !== 0) throw new Error(`coqc Lib.v: ${r.stderr || r.stdout}`);
  };
  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    dir = await mkdtemp(join(TMP, 'restart-lib-'));
    await compile('Lemma lem : True.\nProof. exact I. Qed.\n');
  }, 180_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a name kept as a bound variable, and a library lemma judged closed, are asked again once the restarted prover loaded the rebuilt library', async () => {
    const session = await CoqSession.open({ timeoutMs: 20_000, project: { args: ['-Q', dir, 'P'], readOnly: [dir] } });
    try {
      await session.define('Require Import P.Lib.');
      for (const [name, goal, tactic] of [['t0', 'True', 'exact lem'], ['t1', 'forall helper : nat, helper = helper', 'intros; reflexivity'], ['t2', 'forall helper : nat, helper + 0 = helper', 'intros; apply Nat.add_0_r']]) {
        await session.start(goal as string, name);
        await session.step({ kind: 'apply', tactic: tactic as string });
        expect((await session.finish()).assumptions).toEqual([]);
      }
      // The user rebuilds the library (now declaring `helper`, resting on the axiom behind admit) while the document is open…
      await compile('Require Coq.Compat.AdmitAxiom.\nLemma lem : True.\nProof. case Coq.Compat.AdmitAxiom.proof_admitted. Qed.\nDefinition helper : False := Coq.Compat.AdmitAxiom.proof_admitted.\n');
      // …and the prover dies: the next request restarts it, replaying `Require Import P.Lib`.
      session.killProcessForTest();
      await session.start('False', 't3').catch(() => undefined);
      await session.start('False', 't3');
      await session.step({ kind: 'apply', tactic: 'exact helper' });
      await expect(session.finish()).rejects.toThrow(/proof_admitted/);
      // A library lemma judged closed before the rebuild is judged again too.
      await session.start('True', 't4');
      await session.step({ kind: 'apply', tactic: 'exact lem' });
      await expect(session.finish()).rejects.toThrow(/proof_admitted/);
    } finally {
      await session.dispose();
    }
  }, 240_000);
});
