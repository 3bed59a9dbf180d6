import { describe, expect, it } from 'vitest';
import { escapeRegExp } from '../../../shared/protocol/name-pattern.ts';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ClosedConstants } from './closed-constants.ts';
import { printedAll, printedAllQueries, readPrintedAll, rememberPrintedAll } from './printed-all.ts';
import { quoted, useRealShell } from './testing/real-shell.ts';
import { useRealClient } from './testing/real-client.ts';

const real = useRealShell(['--timeout', '20', '--pool', '0']);

/** Runs `requests` on a fresh channel; returns END's response (the last). */
const ended = async (requests: readonly string[]): Promise<ShellResponse> => (await real.session(requests)).at(-1) as ShellResponse;

/** A prelude whose lemma `via` is proved only through the axiom behind `admit` (an untrusted assumption). */
const ADMITTED = 'Require Import Coq.Compat.AdmitAxiom. Lemma via : 1 = 2. Proof. case proof_admitted. Qed.';

/**
 * Attack on END's read-back (printed-all.ts: Print and Check in one query after `Qed`): a theorem name that is
 * also a `Print` subcommand's keyword made `Print NAME.` print something else (the universe graph, the coercion
 * classes, "No proof in progress"), one notice, so the pair still looked like Print's then Check's: `Hint`,
 * `Classes` and `Strategies` proved `1 = 2` through admit with no assumption (broke, before and after the merge;
 * fixed by asking `Print Term NAME.`). What the assumption judge reads must never let an axiom through.
 */
describe('END: theorem names that `Print` takes as a subcommand (real arbor-shell)', () => {
  const cases = ['Classes', 'Hint', 'Strategies', 'Graph', 'Universes', 'Scopes', 'All', 'Libraries', 'Registered', 'Visibility', 'Tables', 'Coercions'];
  for (const name of cases) {
    it(`a theorem named ${name} proved through admit is refused`, { timeout: 240_000 }, async () => {
      const end = await ended([`PRELUDE ${quoted(ADMITTED)}`, `GOAL ${name} ${quoted('1 = 2')}`, 'APPLY (exact via)', 'END']);
      expect(end.ERR).toBe('unsound: depends on proof_admitted (Coq.Compat.AdmitAxiom.proof_admitted)');
    });
  }
});

/**
 * Names the merged query puts into `Print Term NAME. Check NAME.`: primes, unicode, a library lemma's name,
 * command keywords that Coq still takes as theorem names, a module's name, a theorem inside an open Section
 * or Module, and one shadowing an abbreviation of its name (universe polymorphic). Each: proved through
 * admit is refused; proved honestly is closed, its statement as written.
 */
describe('END: the read-back of awkward theorem names (real arbor-shell)', () => {
  const cases: { name: string; define?: string }[] = [
    { name: "t'" },
    { name: "x'_1'" },
    { name: 'θεώρημα' },
    { name: 'plus_n_O' },
    { name: 'Print' },
    { name: 'Check' },
    { name: 'Term' },
    { name: 'Assumptions' },
    { name: 'Module' },
    { name: 'M', define: 'Module M. Definition d := 0. End M.' },
    { name: 'in_section', define: 'Section S. Variable n : nat.' },
    { name: 'in_module', define: 'Module N.' },
    { name: 'foo', define: 'Notation foo := I. Set Universe Polymorphism. Module M.' },
  ];
  for (const { name, define } of cases) {
    const before = [`PRELUDE ${quoted(ADMITTED)}`, ...(define === undefined ? [] : [`DEFINE ${quoted(define)}`])];
    it(`${name}${define === undefined ? '' : ` after ${define}`}: through admit refused, honest proof closed`, { timeout: 240_000 }, async () => {
      const rs = await real.session([...before, `GOAL ${name} ${quoted('1 = 2')}`, 'APPLY (exact via)', 'END']);
      // A name Coq refuses for a theorem is refused at GOAL: nothing to judge.
      const goal = rs.at(-3) as ShellResponse;
      if (goal.ERR !== '') {
        console.log(`GOAL ${name} refused: ${goal.ERR}`);
        return;
      }
      expect((rs.at(-1) as ShellResponse).ERR).toBe('unsound: depends on proof_admitted (Coq.Compat.AdmitAxiom.proof_admitted)');
      const honest = await ended([...before, `GOAL ${name} ${quoted('2 + 2 = 4')}`, 'APPLY reflexivity', 'END']);
      expect(honest.ERR).toBe('');
      expect(honest.ASSUMPTIONS).toEqual([]);
      expect(honest.STATEMENT).toBeUndefined();
    });
  }
});

/** Printing options would change what both judges read: a DEFINE or PRELUDE may not set them (held). */
describe('END: printing options from the document (real arbor-shell)', () => {
  it('DEFINE and PRELUDE refuse the printing options that would change the read-back', { timeout: 240_000 }, async () => {
    const options = ['Set Printing Depth 1.', 'Set Printing Width 3.', 'Unset Printing All.', 'Unset Printing Notations.', 'Set Printing Raw Literals.', 'Unset Printing Records.', 'Add Printing Let prod.', 'Global Set Printing Width 5.', 'Set Warnings "+deprecated".'];
    const rs = await real.session(['PRELUDE bare', ...options.map((o) => `DEFINE ${quoted(o)}`)]);
    rs.slice(1).forEach((r, i) => expect(`${options[i]} ${r.ERR}`).toMatch(/not allowed/));
    const pre = await real.session([`PRELUDE ${quoted(`${ADMITTED} Set Printing Depth 1.`)}`]);
    expect(pre[0]?.ERR).toMatch(/not allowed/);
  });
});

/**
 * The merged query itself (real coqidetop): for names `Print` would take as a subcommand, after the fix, the
 * one exchange behind `Qed` reads two notices, Print's then Check's, of the theorem; a name Coq knows as
 * something else than a theorem goes the slow way and says which half failed; the remembered reading is
 * never handed out for another name.
 */
describe('the merged read-back query (real coqidetop)', () => {
  const client = useRealClient({ plugin: true });

  it("Qed's one exchange reads the theorem itself for names Print takes as a subcommand", async () => {
    const c = client();
    const start = c.tip;
    for (const name of ['Hint', 'Classes', 'Strategies', 'Universes', 'Print', 'Term', "t'"]) {
      await c.addAndGoals(`Theorem ${name} : 1 + 1 = 2.`);
      await c.addAndGoals('reflexivity.');
      const { sentence, queries } = printedAllQueries(c, name);
      const { answers } = await c.addAndGoalsThen('Qed.', sentence, queries, 30_000);
      const read = readPrintedAll(answers ?? [], true);
      expect(read?.references).toMatch(new RegExp(`^Constant Top\\.${escapeRegExp(name)}\\nConstructor Coq\\.Init\\.Logic\\.eq_refl\\n`));
      expect(read?.statement).toMatch(/^@eq nat/);
    }
    await c.editAt(start);
  }, 180_000);

  it('a name that is no theorem, or none at all; a remembered reading is for its own name', async () => {
    const c = client();
    const start = c.tip;
    // An abbreviation with a hole: no global, so no references; Check shows an existential.
    await c.addAndGoals('Notation arbor_hole := (_ : nat).');
    const { references, statement } = await printedAll(c, 'arbor_hole', 30_000);
    expect(references).toBeUndefined();
    // The plugin refuses what is no constant; `Check` then reads an existential, which no reading parses.
    expect(statement).toMatch(/\?n : \[ \|- nat\]/);
    const none = await printedAll(c, 'arbor_no_such_name', 30_000);
    expect(none).toEqual({ references: undefined, statement: undefined, names: new Map() });
    await c.addAndGoals('Theorem a : True.');
    await c.addAndGoals('exact I.');
    const { sentence, queries } = printedAllQueries(c, 'a');
    const { answers } = await c.addAndGoalsThen('Qed.', sentence, queries, 30_000);
    rememberPrintedAll(c, 'a', answers ?? []);
    const tip = c.tip;
    const other = await printedAll(c, 'arbor_no_such_name', 30_000);
    expect(other.references).toBeUndefined();
    expect((await printedAll(c, 'a', 30_000)).references).toBe('Constant Top.a\nConstructor Coq.Init.Logic.I\nInductive Coq.Init.Logic.True');
    expect(c.tip).toBe(tip);
    await c.editAt(start);
  }, 120_000);
});

/**
 * The assumption judge's own guard (closed-constants.ts): an answer that is not the theorem's references (here
 * what `Print Hint.` printed before `Print Term`) is never read for globals; Coq's own `Print Assumptions` of
 * the theorem decides. A test double of the session's coqidetop.
 */
describe('closed-constants: a references answer that is not the theorem goes to Coq\'s own walk', () => {
  it('"No proof in progress" for Hint: the axiom Print Assumptions lists is judged', async () => {
    const walked: string[] = [];
    const judge = new ClosedConstants({
      query: async (sentences) =>
        [...sentences.matchAll(/Print Assumptions (\S+)\./g)].map((m) => {
          walked.push(m[1] as string);
          return 'Axioms:\nproof_admitted : False';
        }),
      references: async () => 'No proof in progress',
      assumptionsOfAll: async () => 'Closed under the global context',
      resolve: async (name) => (name === 'proof_admitted' ? 'Coq.Compat.AdmitAxiom.proof_admitted' : undefined),
      logLength: () => 3,
    });
    const verdict = await judge.judge('Hint', new Set());
    expect(walked).toEqual(['Hint']);
    expect(verdict.ok).toBe(false);
  });
});
