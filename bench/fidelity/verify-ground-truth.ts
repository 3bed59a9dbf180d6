import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseCases } from '../../shared/fidelity/fidelity-cases.ts';
import { coqErrorMessage, runCoqc } from '../../main/fidelity/run-coqc.ts';
import { groundTruthFile } from './ground-truth-file.ts';

export const casesPath = fileURLToPath(new URL('../../resources/fidelity/cases.tsv', import.meta.url));

/** Check every case's ground truth with coqc; returns the ids that failed. */
export async function verifyGroundTruth(path = casesPath, log: (s: string) => void = () => {}): Promise<string[]> {
  const cases = parseCases(await readFile(path, 'utf8'));
  const bad: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++];
      if (!c) break;
      let file;
      try { file = groundTruthFile(c); } catch (e) { bad.push(c.id); log(`${c.id}: ${(e as Error).message}`); continue; }
      const r = await runCoqc(file.source, { killAfterMs: 60_000 });
      if (r.ok === file.mustFail) { bad.push(c.id); log(`${c.id}: ${file.mustFail ? 'expected a type error' : coqErrorMessage(r.output)}`); }
    }
  };
  await Promise.all([worker(), worker()]);
  log(`${cases.length - bad.length}/${cases.length} ground truths checked by Coq`);
  return bad;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bad = await verifyGroundTruth(process.argv[2] ?? casesPath, (s) => console.log(s));
  process.exitCode = bad.length === 0 ? 0 : 1;
}
