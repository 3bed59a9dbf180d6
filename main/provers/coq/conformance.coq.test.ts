import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../cli/shell-process.ts';
import { runConverted, type ItemOutcome } from './conformance-run.ts';
import { vToDocument } from './v-to-document.ts';
import { runCoqc } from '../../fidelity/run-coqc.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const STDLIB = '/usr/lib/ocaml/coq/theories';

/**
 * Issue 24's conformance suite: public developments nobody here wrote, each `.v` file converted into an
 * Arbor document (declarations as DEFINE, theorems as GOAL with the reference proof's tactics as APPLY
 * lines, END), run through a real arbor-shell and coqidetop; then `coqc` checks the document's SCRIPT.
 * Every refusal is listed with its reason below: a new one (or one that went away) fails the test.
 */
const SOURCES: { source: string; files: string[]; shellTimeoutS?: number }[] = [
  { source: 'stepchowfun-proofs', files: ['fixtures/public/stepchowfun-proofs/lesson3_logic.v', 'fixtures/public/stepchowfun-proofs/lesson4_proof_techniques.v'] },
  {
    source: 'coq-tricks',
    files: ['Sections.v', 'RelationInstances.v', 'IntroPatterns.v', 'SmallInversions.v', 'Projections.v', 'Constructors.v'].map((f) => `fixtures/public/coq-tricks/${f}`),
  },
  // Coq's own library, read from the installed sources at run time (LGPL; not committed).
  // FloatLemmas.v rests on Coq's primitive floats and integers and the axioms that specify them, some printed by
  // names a notation made keywords (`land`, `lor`): trusted by kernel name since session 14 (docs/guarantees.md).
  { source: 'coq-stdlib', files: [`${STDLIB}/Arith/Between.v`, `${STDLIB}/Logic/Diaconescu.v`, `${STDLIB}/Floats/FloatLemmas.v`] },
  // Its `Definition … := Eval compute in …` over 2000-element lists takes seconds of Coq's own time (20 s of
  // coqc per file): a shell of its own with room for that on a loaded machine.
  { source: 'ybertot-fset-exercises', files: ['list.v', 'finitesets.v'].map((f) => `fixtures/public/ybertot-fset-exercises/${f}`), shellTimeoutS: 300 },
];

/** Items that do not go through, by file and line, with the part of the reason that must stay the same. */
const EXPECTED_REFUSALS: Record<string, Record<number, RegExp>> = {
  // lesson3_logic.v redefines `/\`, `<->`, `\/`, `~`, `=`, `exists` over its own inductive types after switching
  // off Coq's notation-overridden warning: accepted since 2026-11-26 (docs/notation-overrides.md), every item
  // goes through and each statement's own meaning is shown (checked below).

  // Since 2026-11-26 a capitalised user tactic in a proof (`RelInstance_t.`, l. 25) passes when Coq's parse reads
  // the sentence as a tactic call, and `Set Printing Projections` (Projections.v) is allowed: both files go through.
};

describe('conformance: public Coq developments as Arbor documents (real arbor-shell, coqidetop, coqc)', () => {
  let shell: ShellProcess;
  const dir = join(ROOT, '.tmp', 'conformance');
  const report: { source: string; file: string; outcomes: ItemOutcome[]; coqc: string }[] = [];
  beforeAll(async () => {
    await mkdir(dir, { recursive: true });
    shell = new ShellProcess(['--timeout', '10']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
    await rm(dir, { recursive: true, force: true });
    for (const r of report) {
      const count = (k: ItemOutcome['result']): number => r.outcomes.filter((o) => o.result === k).length;
      const theorems = r.outcomes.filter((o) => o.kind === 'proof');
      console.log(`${r.source} ${r.file}: ${r.outcomes.length} items, theorems ${theorems.filter((o) => o.result === 'proved').length}/${theorems.length} proved, declarations ${count('declared')}, skipped ${count('skipped')}, refused ${count('refused')}; coqc on SCRIPT: ${r.coqc}`);
      for (const o of r.outcomes.filter((x) => x.result === 'refused')) console.log(`  refused l.${o.line}${o.name ? ` ${o.name}` : ''}: ${o.reason ?? ''}`);
    }
  });

  for (const { source, files, shellTimeoutS } of SOURCES) {
    for (const file of files) {
      const path = file.startsWith('/') ? file : join(ROOT, file);
      const short = file.split('/').slice(-1)[0] as string;
      it(`${source}: ${short}`, { timeout: shellTimeoutS === undefined ? 600_000 : 1_500_000 }, async () => {
        const items = vToDocument(await readFile(path, 'utf8'));
        const own = shellTimeoutS === undefined ? undefined : new ShellProcess(['--timeout', String(shellTimeoutS)]);
        try {
          await runFile(own ?? shell, source, path, short, items);
        } finally {
          if (own) expect(await own.end()).toBe(0);
        }
      });
    }
  }

  /** One converted file through `on` (the suite's shell, or the source's own), then coqc on its SCRIPT. */
  async function runFile(on: ShellProcess, source: string, path: string, short: string, items: ReturnType<typeof vToDocument>): Promise<void> {
    const shell = on;
    const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    // A .v file starts from Coq's Init only, as coqc gives it: the document asks for the same.
    expect((await shell.request(`${ch} PRELUDE bare`, ch)).ERR).toBe('');
    const outcomes = await runConverted(items, (line) => shell.request(`${ch} ${line}`, ch));
    const script = (await shell.request(`${ch} SCRIPT`, ch)).RESPONSE as string;
    await shell.request(`${ch} RELEASE_CHANNEL`, ch);
    const v = join(dir, short.replace(/[^A-Za-z0-9_]/g, '_').replace(/_v$/, '.v'));
    await writeFile(v, script);
    // Through the one coqc runner: sandboxed, as every coqc run of Arbor's (and with a trusted project's load paths when there is one).
    const compiled = await runCoqc(script, { killAfterMs: 300_000 });
    const coqc = compiled.ok ? 'accepted' : `refused: ${compiled.output}`;
    report.push({ source, file: short, outcomes, coqc });
    // Every theorem of the file is an item (none lost by the conversion), and coqc accepts Arbor's script.
    const theorems = (await readFile(path, 'utf8')).match(/^\s*(Theorem|Lemma|Goal|Example|Fact|Remark|Corollary|Proposition)\b/gm)?.length ?? 0;
    expect(outcomes.filter((o) => o.kind === 'proof' || (o.kind === 'skipped' && /aborted/.test(o.reason ?? ''))).length, short).toBeGreaterThanOrEqual(theorems);
    // …and Arbor states every one of them (a GOAL is never refused).
    expect(outcomes.filter((o) => o.kind === 'proof' && /^GOAL:/.test(o.reason ?? '')), short).toEqual([]);
    expect(coqc, short).toBe('accepted');
    const expected = EXPECTED_REFUSALS[short] ?? {};
    const refused = outcomes.filter((o) => o.result === 'refused');
    expect(refused.map((o) => `${o.line}: ${o.reason ?? ''}`), short).toEqual(refused.filter((o) => expected[o.line]?.test(o.reason ?? '')).map((o) => `${o.line}: ${o.reason ?? ''}`));
    expect(Object.keys(expected).map(Number).filter((l) => !refused.some((o) => o.line === l)), `${short}: expected refusals that now pass`).toEqual([]);
    if (short === 'lesson3_logic.v') {
      // The lesson's `True /\ True` (l. 107) is its own `and` over its own `True`: the END says so.
      const own = outcomes.find((o) => o.line === 107);
      expect(own?.result).toBe('proved');
      expect(own?.statement?.elaborated, JSON.stringify(own)).toMatch(/^(\w+\.)+and (\w+\.)+True (\w+\.)+True$/);
      expect(own?.statement?.elaborated).not.toMatch(/Coq\.Init/);
      expect(own?.statement?.differences.join('\n')).toMatch(/`and` is the document's own `[\w.]+\.and`, not `Coq\.Init\.Logic\.and`/);
      // …and a statement it left alone (`forall A B, (A -> B) -> A -> B`, l. 154) carries no meaning line.
      expect(outcomes.find((o) => o.line === 154)?.statement).toBeUndefined();
    }
  }
});
