import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../process/process-manager.ts';
import { useRealShell, useScratchDir } from './testing/real-shell.ts';

/**
 * Attacks on END's kept `Locate Term` answers for qualified names (closed-constants.ts, `Located`): sequences
 * where the same printed qualified name could stand for another object at a later END — functor
 * applications, a REVERT and a shadowing DEFINE at the same step, proofs inside the name's own module with
 * `abstract … using`. Oracle: coqc's `Print Assumptions` on Arbor's own SCRIPT. All held when written.
 */
const { channel } = useRealShell(['--timeout', '20', '--pool', '0']);
const scratch = useScratchDir('arbor-kept-');

/** The axioms' names coqc's `Print Assumptions` lists for each theorem of `script`. */
async function coqcAxioms(name: string, script: string, theorems: readonly string[]): Promise<string[][]> {
  const dir = scratch();
  const file = join(dir, `${name}.v`);
  await writeFile(file, `${script}\n${theorems.map((t) => `Print Assumptions ${t}.`).join('\n')}\n`);
  const r = await runProcess({ program: 'coqc', args: [file], cwd: dir, timeoutMs: 120_000, sandbox: false });
  expect(r.exitCode, r.stderr || r.stdout).toBe(0);
  const blocks = r.stdout.split(/(?=^Axioms:$|^Closed under the global context$)/m).filter((b) => /^(Axioms:|Closed)/.test(b));
  return blocks.map((b) => (b.startsWith('Closed') ? [] : [...b.matchAll(/^(\S+) :/gm)].map((m) => m[1] as string).sort()));
}

const names = (assumptions: unknown): string[] => ((assumptions as string[] | undefined) ?? []).map((a) => a.split(' :')[0] as string).sort();

/** Runs `steps` on a fresh channel; returns each finished theorem's ASSUMPTIONS (by name) and the SCRIPT. */
async function run(steps: string[]): Promise<{ ended: Map<string, string[]>; script: string }> {
  const say = await channel();
  const ended = new Map<string, string[]>();
  let current = '';
  for (const s of steps) {
    const r = await say(s);
    expect(r.ERR, s).toBe('');
    const goal = /^GOAL (\S+)/.exec(s);
    if (goal) current = goal[1] as string;
    if (s === 'END') ended.set(current, names(r.ASSUMPTIONS));
  }
  const script = String((await say('SCRIPT')).RESPONSE);
  await say('RELEASE_CHANNEL');
  return { ended, script };
}

/** `inModule`: theorems stated inside a module the document closed, named by coqc with it. */
async function agreesWithCoqc(label: string, steps: string[], inModule: Record<string, string> = {}): Promise<void> {
  const { ended, script } = await run(steps);
  const theorems = [...ended.keys()].filter((t) => script.split('\n').some((line) => line.startsWith(`Theorem ${t} :`)));
  const coqc = await coqcAxioms(label, script, theorems.map((t) => (inModule[t] !== undefined ? `${inModule[t]}.${t}` : t)));
  expect(Object.fromEntries(theorems.map((t) => [t, ended.get(t)]))).toEqual(Object.fromEntries(theorems.map((t, i) => [t, coqc[i]])));
  // Each sequence has a theorem that rests on the axiom: the comparison is not between empty lists.
  expect(coqc.flat()).toContain('classic');
}

const AXIOMATIC = 'match classic True with or_introl _ => eq_refl | or_intror _ => eq_refl end';

describe('kept Locate answers against coqc (real Coq)', () => {
  const sequences: { name: string; label: string; steps: string[]; inModule?: Record<string, string> }[] = [
    {
      name: 'functor applications: A.d and B.d, one through an axiom',
      label: 'functors',
      steps: [
        'PRELUDE "Require Import Classical."',
        `DEFINE "Module Type T. Parameter c : 0 = 0. End T. Module Ax <: T. Definition c : 0 = 0 := ${AXIOMATIC}. End Ax. Module Cl <: T. Definition c : 0 = 0 := eq_refl. End Cl. Module F (X : T). Definition d : 0 = 0 := X.c. End F. Module A := F Ax. Module B := F Cl."`,
        'GOAL t1 "0 = 0"', 'APPLY (exact B.d)', 'END',
        'GOAL t2 "0 = 0"', 'APPLY (exact A.d)', 'END',
        'GOAL t3 "0 = 0"', 'APPLY (exact B.d)', 'END',
      ],
    },
    {
      name: 'REVERT below a kept answer, then a DEFINE that shadows the name at the same step',
      label: 'revert_shadow',
      steps: [
        'PRELUDE "Require Import Classical."',
        'DEFINE "Module M. Definition c : 0 = 0 := eq_refl. End M."',
        'GOAL t1 "0 = 0"', 'APPLY (exact M.c)', 'END',
        'GOAL t2 "0 = 0"', 'APPLY (exact M.c)', 'END',
        // Back to step 1 (the DEFINE), then the same number of steps with M.c now resting on classic.
        'REVERT 1',
        `DEFINE "Module Sh. Module M. Definition c : 0 = 0 := ${AXIOMATIC}. End M. End Sh. Import Sh."`,
        'GOAL t3 "0 = 0"', 'APPLY (exact M.c)', 'END',
      ],
    },
    {
      name: 'proofs inside the module (abstract … using, M.t2 named from inside and outside M)',
      label: 'own_module',
      steps: [
        'PRELUDE "Require Import Classical."',
        `DEFINE "Module N. Definition c : 0 = 0 := ${AXIOMATIC}. End N. Module M. Definition c : 0 = 0 := eq_refl."`,
        'GOAL t1 "0 = 0"', 'APPLY (exact M.c)', 'END',
        'GOAL t2 "0 = 0"', 'APPLY (abstract (exact N.c) using helper)', 'END',
        'GOAL t3 "0 = 0"', 'APPLY (exact M.t2)', 'END',
        'GOAL t4 "0 = 0"', 'APPLY (exact M.c)', 'END',
        'DEFINE "End M."',
        'GOAL t5 "0 = 0"', 'APPLY (exact M.t2)', 'END',
        'GOAL t6 "0 = 0"', 'APPLY (exact M.t2)', 'END',
      ],
      inModule: { t1: 'M', t2: 'M', t3: 'M', t4: 'M' },
    },
  ];
  for (const c of sequences) {
    it(c.name, { timeout: 240_000 }, () => agreesWithCoqc(c.label, c.steps, c.inModule));
  }
});
