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
import { SYM, TermBank } from '../../main/provers/eq/term.ts';
import { kboWithPrecedence } from '../../main/provers/eq/kbo.ts';
import { AIM_DATA_DIR } from '../../main/provers/eq/test-data.ts';
import { sampleLines } from './sample.ts';

/** Seed-1 problems the first fast version already solved within 5 s (so --unsolved probes the hard ones). */
const SOLVED_AT_5S: string[] = [
'p9_12df0eecf7',
  'p9_457017bd58',
  'p9_5c5482fc69',
  'p9_745fd23828',
  'p9_769f8daab0',
  'p9_91d5835909',
  'p9_94202d9740',
  'p9_aa13ba9173',
  'p9_b33e66969c',
  'p9_cfc1c48590',
  'p9_f417803034',
  'p9_11659bfd91',
  'p9_12f6b45f42',
  'p9_1b6020060d',
  'p9_6a291e1803',
  'p9_755573072d',
  'p9_9366f56158',
  'p9_a899677920',
  'p9_b105be1d5b',
];

const { values } = parseArgs({ options: { sample: { type: 'string', default: '40' }, seed: { type: 'string', default: '1' }, limit: { type: 'string', default: '5' }, shard: { type: 'string', default: '0/1' }, order: { type: 'string' }, only: { type: 'string' }, goal: { type: 'string' }, fifo: { type: 'string' }, prec: { type: 'string' }, maxside: { type: 'string' }, maxsel: { type: 'string' }, weighting: { type: 'string' }, unsolved: { type: 'boolean', default: false } } });
const preamble = readFileSync(`${AIM_DATA_DIR}/preamble.txt`, 'utf8');
const all = readFileSync(`${AIM_DATA_DIR}/dev.txt`, 'utf8').split('\n').filter((l) => l.startsWith('Theorem'));
let lines = sampleLines(all, Number(values.sample), Number(values.seed));
const [si, sn] = (values.shard as string).split('/').map(Number) as [number, number];
lines = lines.filter((_, i) => i % sn === si);
if (values.unsolved) lines = lines.filter((l) => !SOLVED_AT_5S.some((n) => l.includes(n)));
if (values.only) lines = lines.filter((l) => l.includes(values.only as string));
let solved = 0;

for (const line of lines) {
  const bank = new TermBank();
  const a = parseArticle(bank, `${preamble}\n${line}\n`);
  const th = a.theorems[0]!;
  const goal = parseEquation(bank, th.statement, { names: 'constants' });
  const r = await proveByCompletion(bank, a.equations, goal, { deadline: Date.now() + Number(values.limit) * 1000, ...(values.order ? { order: values.order as 'kbo' } : {}), ...(values.prec ? { order: kboWithPrecedence(values.prec.split(',').map((n) => SYM[n as keyof typeof SYM])) } : {}), ...(values.goal ? { goalFactor: Number(values.goal) } : {}), ...(values.fifo ? { fifoEvery: Number(values.fifo) } : {}), ...(values.maxside ? { maxSideSize: Number(values.maxside) } : {}), ...(values.maxsel ? { maxSelections: Number(values.maxsel) } : {}), ...(values.weighting ? { weighting: values.weighting as 'max' } : {}) });
  const ok = r.proof ? checkProof(preamble, proofToJson(r.bank, r.proof), th.statement).ok : false;
  if (ok) solved++;
  console.log(`${th.name} ${ok ? 'SOLVED' : r.proof ? 'BADPROOF' : '-'} ${r.stats.ms}ms sel=${r.stats.selected} act=${r.stats.active} gen=${r.stats.generated}`);
}
console.log(`solved ${solved}/${lines.length}`);

