/**
 * Development probe for Arbor's own completion prover (no E): runs a sample of AIM problems with a
 * limit and prints per-problem solved/ms/selections, so prover changes can be compared quickly.
 *
 *   npx tsx bench/aim/own-probe.ts [--sample N] [--seed S] [--limit SECONDS] [--shard i/n] [--order kbo|...]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseArticle } from '../../main/provers/eq/article.ts';
import { checkProof } from '../../main/provers/eq/check-proof.ts';
import { proveByCompletion } from '../../main/provers/eq/completion.ts';
import { parseEquation } from '../../main/provers/eq/parse-term.ts';
import { proofToJson } from '../../main/provers/eq/proof-json.ts';
import { TermBank } from '../../main/provers/eq/term.ts';
import { AIM_DATA_DIR } from '../../main/provers/eq/test-data.ts';
import { sampleLines } from './sample.ts';

const { values } = parseArgs({ options: { sample: { type: 'string', default: '40' }, seed: { type: 'string', default: '1' }, limit: { type: 'string', default: '5' }, shard: { type: 'string', default: '0/1' }, order: { type: 'string' }, only: { type: 'string' } } });
const preamble = readFileSync(`${AIM_DATA_DIR}/preamble.txt`, 'utf8');
const all = readFileSync(`${AIM_DATA_DIR}/dev.txt`, 'utf8').split('\n').filter((l) => l.startsWith('Theorem'));
let lines = sampleLines(all, Number(values.sample), Number(values.seed));
const [si, sn] = (values.shard as string).split('/').map(Number) as [number, number];
lines = lines.filter((_, i) => i % sn === si);
if (values.only) lines = lines.filter((l) => l.includes(values.only as string));
let solved = 0;
for (const line of lines) {
  const bank = new TermBank();
  const a = parseArticle(bank, `${preamble}\n${line}\n`);
  const th = a.theorems[0]!;
  const goal = parseEquation(bank, th.statement, { names: 'constants' });
  const r = await proveByCompletion(bank, a.equations, goal, { deadline: Date.now() + Number(values.limit) * 1000, ...(values.order ? { order: values.order as 'kbo' } : {}) });
  const ok = r.proof ? checkProof(preamble, proofToJson(r.bank, r.proof), th.statement).ok : false;
  if (ok) solved++;
  console.log(`${th.name} ${ok ? 'SOLVED' : r.proof ? 'BADPROOF' : '-'} ${r.stats.ms}ms sel=${r.stats.selected} act=${r.stats.active} gen=${r.stats.generated}`);
}
console.log(`solved ${solved}/${lines.length}`);
