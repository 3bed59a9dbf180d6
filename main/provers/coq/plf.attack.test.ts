import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import type { VFileReport } from '../../../shared/derivation/v-file-derivation.ts';
import { runCoqc } from '../../fidelity/run-coqc.ts';
import { openPlfWorkspace, type PlfWorkspace } from './testing/plf-project.ts';
import { vFileDerivations } from './v-file-derivations.ts';
import { vToDocument } from './v-to-document.ts';

/**
 * What goes wrong when PLF (Software Foundations vol. 2, `fixtures/public/plf`: Maps, Imp, Equiv) is used as the
 * user's trusted `_CoqProject` (real coqidetop, workbench shell, coqc). coqc accepts every file; each expected
 * failure below is something Arbor refuses, says wrongly or reports misleadingly. `plf.coq.test.ts` holds what works.
 * Not defects (deliberate, docs/guarantees.md, docs/real-documents.md): admitted exercises are never declared nor
 * proved, items using them fail; printing options other than Projections are refused; a statement written with the
 * project's own notations (`<{ … }>`) does not elaborate in the clean reading (project modules come in there
 * without their notations), so its END carries a STATEMENT.
 */
describe('PLF as the user\'s project: what Arbor gets wrong (expected failures, real Coq)', () => {
  let w: PlfWorkspace;
  let equiv: VFileReport;
  beforeAll(async () => {
    w = await openPlfWorkspace('plf-attack-');
    equiv = await vFileDerivations(await readFile(join(w.root, 'Equiv.v'), 'utf8'), { timeoutMs: 60_000, project: w.project });
  }, 300_000);
  afterAll(async () => {
    await w?.dispose();
  });

  /** Sends `lines` on a fresh channel, every one of them (a refusal does not stop it); the responses. */
  const sendAll = async (lines: readonly string[]): Promise<ShellResponse[]> => {
    const send = await w.channel();
    const out: ShellResponse[] = [];
    for (const l of lines) out.push(await send(l));
    await send('RELEASE_CHANNEL');
    return out;
  };

  // Fixed (session 16): Coq reads the conversion's DEFINE text on a second prover once a proof is left out, and what it
  // refuses there (`optimizer`, over the admitted `optimize_0plus_com`) is left out too (v-file-derivations.ts DefinedPrefix).
  // Showed: ▶ Convert offers Equiv.v's subst_aexp_ex (l. 1289) and subst_inequiv (l. 1314) — finished, resting on
  // nothing admitted — but the converted item's first line, its DEFINE, is refused: "The reference optimize_0plus_com
  // was not found in the current environment". The DEFINE leaves out the admitted exercise definitions
  // `Fixpoint optimize_0plus_com (c : com) : com. Admitted.` (l. 1198; Arbor never declares an admitted constant),
  // yet keeps `Definition optimizer (c : com) := optimize_0plus_com (fold_constants_com c).` (l. 1231), which uses it.
  // Cause: v-file-derivations.ts `vFileDerivations`/`convert` — `leftOut` holds the admitted proofs and the
  // *theorems* whose `admittedReliance` is non-empty; a plain declaration is never asked what it rests on, so a
  // definition built on an admitted definition stays in every later DEFINE (the DEFINE is `kept` minus `leftOut`).
  // The converted statements do not need `optimizer`: leaving it out (or refusing the conversion, naming l. 1231)
  // would be right. As a whole document Equiv.v proves both (the refused `optimizer` is simply absent there).
  it('Equiv.v l.1289 (subst_aexp_ex) and l.1314 (subst_inequiv): ▶ Convert\'s items go through and coqc accepts their SCRIPT', async () => {
    for (const line of [1289, 1314]) {
      const t = equiv.theorems.find((x) => x.line === line);
      expect(t?.ending).toBe('Qed');
      expect(t?.restsOn).toBeUndefined();
      if (!t?.converted.ok) throw new Error(`l.${line} not converted: ${JSON.stringify(t?.converted)}`);
      const { responses, script } = await w.runItem(t.converted.lines);
      expect(responses.map((r) => r.ERR), `l.${line}`).toEqual(t.converted.lines.map(() => ''));
      const coqc = await runCoqc(script, { killAfterMs: 120_000, project: w.project });
      expect(coqc.ok, coqc.output).toBe(true);
    }
  }, 300_000);

  // Shows: a statement over the project library that means exactly what its text says — `t_update (t_empty 0) "x" 1 "x"
  // = 1` after `From PLF Require Import Maps.` — gets a STATEMENT saying it "does not elaborate" in the clean
  // reading: "No interpretation for string "x"". Coq reads it (coqc accepts `From PLF Require Import Maps. Check …`), and
  // the same statement with `From Coq Require Import String.` added to the document carries no STATEMENT.
  // Cause: project-library-sentence.ts `importModules` imports a project module into the clean environment as
  // `Import -(notations, coercions, canonicals, hints, ltac.notations) PLF.Maps` — which also filters what PLF.Maps
  // *re-exports from the standard library* (`From Coq Require Export Strings.String`: Coq's own string literal
  // notation). The project's own notations must stay out (deliberate); Coq's, reached through an `Export`, need not.
  // Every PLF statement with a string literal over Maps is flagged so (a false alarm on an honest statement).
  it.fails('a statement over PLF.Maps written with Coq\'s string literals carries no STATEMENT (it means what it says)', async () => {
    const r = await sendAll(['PRELUDE bare', 'DEFINE "From PLF Require Import Maps."', 'GOAL lookup_updated "t_update (t_empty 0) \\"x\\" 1 \\"x\\" = 1"', 'APPLY reflexivity', 'END']);
    expect(r.map((x) => x.ERR)).toEqual(['', '', '', '', '']);
    expect(r[4]?.ASSUMPTIONS).toEqual([]);
    expect(r[4]?.STATEMENT?.differences.join('\n') ?? '').not.toMatch(/No interpretation for string/);
  }, 120_000);

  // Fixed (session 16): such names are "the project library's" (statement-meaning.ts `documentNames`, the project's
  // logical roots from its -Q/-R arguments).
  // Showed: a STATEMENT over the project's library calls its names "the document's own": after `From PLF Require
  // Import Imp.`, END of `aeval empty_st <{ 1 + 2 }> = 3` lists "`aeval` is the document's own `PLF.Imp.aeval`",
  // "`APlus` is the document's own `PLF.Imp.APlus`" (every END of Equiv.v as a document says so of Imp's names, and
  // Imp.v's of Maps' `PLF.Maps.t_update`). The document declares none of them: they are the trusted project's
  // compiled library's. Cause: statement-meaning.ts `isDocumentName` (`!/^(Coq|Hammer)\./`) takes every name outside
  // Coq's and CoqHammer's libraries for the document's, which held before a trusted project's libraries could be
  // loaded (commit 1427f98); `documentNames` words the note from it. The document's own are `Top.…`.
  it('a name of the trusted project\'s library is not called "the document\'s own" in STATEMENT', async () => {
    const r = await sendAll(['PRELUDE bare', 'DEFINE "From PLF Require Import Imp."', 'GOAL small_sum "aeval empty_st <{ 1 + 2 }> = 3"', 'APPLY reflexivity', 'END']);
    expect(r.map((x) => x.ERR)).toEqual(['', '', '', '', '']);
    // The project's notation `<{ … }>` does not read in the clean environment (deliberate): a STATEMENT is due.
    const differences = r[4]?.STATEMENT?.differences ?? [];
    expect(differences[0]).toMatch(/does not elaborate/);
    expect(differences.filter((d) => /is the document's own `PLF\./.test(d))).toEqual([]);
    expect(differences).toEqual(expect.arrayContaining([expect.stringMatching(/^`aeval` is the project library's `PLF\.Imp\.aeval`/)]));
  }, 120_000);

  // Fixed (session 16): a declaration without `:=` that opens a proof (`Fixpoint`, `CoFixpoint` too) takes it along, and
  // one ending `Admitted` is a skipped item (v-to-document.ts).
  // Showed: the conformance conversion (v-to-document.ts `vToDocument`) turns an admitted exercise *definition*
  // `Fixpoint optimize_0plus_b (b : bexp) : bexp (* REPLACE … *). Admitted.` (Imp.v l. 465; also l. 1801, 1824, and
  // Equiv.v l. 1192, 1195, 1198) into two DEFINE items, both refused — "declaration leaves a proof open" (l. 465) and a
  // lone `Admitted.` as its own DEFINE, "declaration sentence not allowed: Admitted" (l. 466) — while the same exercise
  // written `Definition pup_to_n : com (* … *). Admitted.` (Imp.v l. 1586) is one skipped item: "pup_to_n is
  // Admitted, not proved: Arbor never assumes an unproved lemma". Cause: `THEOREMS` lists `Definition` but not
  // `Fixpoint`/`CoFixpoint`, and a declaration only takes its proof along for `Instance|Next|Add`; so the Fixpoint's
  // `Admitted.` is read as a sentence of its own. The refusal is deliberate; two refused items with policy reasons
  // for one admitted definition are not.
  it('Imp.v as a document: an admitted `Fixpoint … : T. Admitted.` is one skipped item saying it is Admitted, as an admitted Definition is', async () => {
    const items = vToDocument(await readFile(join(w.root, 'Imp.v'), 'utf8'));
    expect(items.find((i) => i.line === 1586)).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^pup_to_n is Admitted/) });
    expect(items.find((i) => i.line === 466)).toBeUndefined();
    expect(items.find((i) => i.line === 465)).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^optimize_0plus_b is Admitted/) });
  });
});
