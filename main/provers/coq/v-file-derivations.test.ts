import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeView } from '../../../shared/proof-tree/proof-tree.ts';
import { ShellProcess } from '../../cli/shell-process.ts';
import { runCoqc } from '../../fidelity/run-coqc.ts';
import { vFileDerivations } from './v-file-derivations.ts';
import type { VFileReport } from './v-file-derivations.ts';

const FIXTURE = fileURLToPath(new URL('../../../fixtures/public/coqhammer/sqrt2_irrational.v', import.meta.url));

const nodes = (t: TreeView): TreeView[] => [t, ...(t.children ?? []).flatMap(nodes)];
const depth = (t: TreeView): number => 1 + Math.max(0, ...(t.children ?? []).map(depth));

/**
 * A public `.v` file (CoqHammer's sqrt2_irrational.v: bullets, braces, nested asserts) opened as
 * derivations: real sandboxed coqidetop; the converted theorems checked by a real arbor-shell and their
 * SCRIPT compiled by coqc.
 */
describe('a .v file as derivations (real coqidetop)', () => {
  let report: VFileReport;
  let shell: ShellProcess;
  beforeAll(async () => {
    report = await vFileDerivations(readFileSync(FIXTURE, 'utf8'), { timeoutMs: 60_000 });
    shell = new ShellProcess(['--timeout', '60']);
  }, 180_000);
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  it('reads every theorem, each to its Qed, and draws the whole proof', () => {
    expect(report.stopped).toBeUndefined();
    expect(report.theorems.map((t) => [t.name, t.ending])).toEqual([['lem_0', 'Qed'], ['lem_main', 'Qed'], ['thm_irrational', 'Qed']]);
    const t = report.theorems[2]!;
    const last = t.steps.at(-1)!.tree;
    // Every goal closed, by the tactic that acted on it; the asserts nest (the proof's braces three deep).
    expect(nodes(last).filter((n) => !n.closed)).toEqual([]);
    expect(depth(last)).toBeGreaterThanOrEqual(6);
    const asserted = nodes(last).find((n) => (n.goal ?? '').includes('INR (2 * q * q) = INR (p * p)') && (n.children?.length ?? 0) === 2);
    expect(asserted?.action).toMatch(/assert/);
    // The step-through starts from the goal alone and grows one tactic at a time.
    expect(nodes(t.steps[0]!.tree)).toHaveLength(1);
    expect(t.steps[0]!.tree.goal ?? '').toContain('sqrt 2');
    expect(t.steps.length).toBeGreaterThan(20);
    // Hypotheses in scope, as Coq reported them: after `intros p q H H0` the goal sees all four.
    const afterIntros = nodes(last).find((n) => (n.scope?.hyps ?? []).some((h) => h.name === 'H0'));
    expect(afterIntros).toBeDefined();
    // lem_main's bullets: its case split has two branches, each closed.
    const split = nodes(report.theorems[1]!.steps.at(-1)!.tree).find((n) => /Nat\.eq_dec/.test(n.action ?? ''));
    expect(split?.children).toHaveLength(2);
  });

  it('converts each theorem into an item that checks in Arbor, and its SCRIPT compiles with coqc', async () => {
    for (const t of report.theorems) {
      expect(t.converted.ok, t.name).toBe(true);
      if (!t.converted.ok) continue;
      const lines = t.converted.lines;
      expect(lines.filter((l) => l.startsWith('APPLY')).length).toBeGreaterThan(3);
      const responses = await shell.onFreshChannel([...lines, 'SCRIPT']);
      responses.slice(0, -1).forEach((r, i) => expect(r.ERR, `${t.name}: ${lines[i]}`).toBe(''));
      const script = responses.at(-1)!.RESPONSE as string;
      expect(script).toContain(`Theorem ${t.name}`);
      expect(script).not.toMatch(/Admitted/);
      const coqc = await runCoqc(script, { killAfterMs: 120_000 });
      expect(coqc.ok, coqc.output).toBe(true);
    }
  }, 600_000);
});
