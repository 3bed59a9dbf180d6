/**
 * Cross-check of Arbor's own AIM proofs with a second, unrelated checker: solves sample problems with
 * own completion only, renders each checked proof as a Coq script and runs `coqc` on it (Coq checks
 * every rewrite step itself; `Print Assumptions` must list only the ARTICLE's parameters and axioms).
 *
 *   npx tsx bench/aim/coq-crosscheck.ts [--sample N] [--seed S] [--limit SECONDS]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { renderCoq } from '../../main/provers/eq/coq-script.ts';
import { solveProblem } from '../../main/provers/eq/solve-problem.ts';
import { AIM_DATA_DIR } from '../../main/provers/eq/test-data.ts';
import { sampleLines } from './sample.ts';

const { values } = parseArgs({ options: { sample: { type: 'string', default: '10' }, seed: { type: 'string', default: '2' }, limit: { type: 'string', default: '10' } } });
const preamble = readFileSync(join(AIM_DATA_DIR, 'preamble.txt'), 'utf8');
const all = readFileSync(join(AIM_DATA_DIR, 'dev.txt'), 'utf8').split('\n').filter((l) => l.startsWith('Theorem'));
const dir = mkdtempSync(join(tmpdir(), 'arbor-aim-coq-'));
let solved = 0;
let coqOk = 0;
for (const line of sampleLines(all, Number(values.sample), Number(values.seed))) {
  const r = await solveProblem(preamble, line, Number(values.limit) * 1000, { useE: false });
  if (!r.solved || !r.proof) {
    console.log(`${r.name}: not solved`);
    continue;
  }
  solved++;
  const file = join(dir, `${r.name}.v`);
  writeFileSync(file, renderCoq(preamble, r.proof, r.name));
  try {
    const out = execFileSync('coqc', [file], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    const ok = /Axioms:/.test(out) && !/admit/i.test(out);
    if (ok) coqOk++;
    console.log(`${r.name}: ${r.by} ${r.ms} ms, ${r.proofSteps} steps, coqc ${ok ? 'ok' : 'UNEXPECTED OUTPUT'}`);
  } catch (err) {
    console.log(`${r.name}: coqc REJECTED: ${(err as Error).message.slice(0, 300)}`);
  }
}
console.log(`solved ${solved}, accepted by coqc ${coqOk} (scripts in ${dir})`);
