import { readFile } from 'node:fs/promises';
import { cpuMs } from '../main/process/process-tree.ts';
import { CoqideTopClient } from '../main/provers/coq/coqidetop-client.ts';
import { withArborPlugin } from '../main/provers/coq/arbor-plugin.ts';
import { splitSentences } from '../main/provers/coq/coq-sentence.ts';
import { vToDocument } from '../main/provers/coq/v-to-document.ts';
import { environmentPrelude, sessionOnlyPrelude } from '../main/provers/coq/environments.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * What END's questions cost the prover (docs/document-speed.md, "The prover's floor"): Coq's own `Bool.v`
 * (LGPL, read from the installed sources) after Arbor's prelude for a bare document, its theorems stated as Arbor states them, each sentence added
 * and its goals asked; at each theorem's end, one variant of END's read-back. The figure is the CPU time
 * of the one `coqidetop` (Linux schedstat), which the machine's load moves far less than the wall clock.
 * Variants alternate within each round.
 */
const PUBLIC = '/usr/lib/ocaml/coq/theories/Bool/Bool.v';
const ROUNDS = Math.max(1, Number(process.env.ARBOR_BENCH_ROUNDS ?? 2));

type Variant = 'nothing more' | 'two Locate queries' | 'the Locate batches as one query' | 'Set Printing All and back' | 'Print and Check, two queries' | 'Print and Check, one query' | 'Check alone, one query' | 'Arbor_references and Check, one query';
const VARIANTS: Variant[] = ['nothing more', 'two Locate queries', 'the Locate batches as one query', 'Set Printing All and back', 'Print and Check, two queries', 'Print and Check, one query', 'Check alone, one query', 'Arbor_references and Check, one query'];

/** The file's sentences as Arbor's SCRIPT has them, each with the theorem it finishes (if it does). */
async function sentencesOf(file: string): Promise<{ sentence: string; finishes?: string }[]> {
  const out: { sentence: string; finishes?: string }[] = [];
  for (const item of vToDocument(await readFile(file, 'utf8'))) {
    if (item.kind === 'define') out.push(...splitSentences(item.text).map((sentence) => ({ sentence })));
    else if (item.kind === 'proof' && item.name !== undefined) {
      out.push({ sentence: `Theorem ${item.name} : (${item.statement}).` }, { sentence: 'Proof.' }, ...item.tactics.map((t) => ({ sentence: `(${t}).` })), { sentence: 'Qed.', finishes: item.name });
    }
  }
  return out;
}

async function run(sentences: readonly { sentence: string; finishes?: string }[], variant: Variant): Promise<{ cpu: number; theorems: number }> {
  // With Arbor's Coq plugin loaded, as a channel's coqidetop has it (arbor-plugin.ts).
  const client = await CoqideTopClient.start(withArborPlugin({}) ?? {});
  try {
    // Arbor's prelude for a bare document first (its tactics' libraries loaded), not counted: the state the
    // prover saves and restores around each question holds what is loaded.
    for (const s of [...sessionOnlyPrelude('bare'), ...splitSentences(environmentPrelude('bare'))]) await client.add(s);
    await client.goals();
    const pid = client.proverPid as number;
    const before = cpuMs(pid) ?? 0;
    let theorems = 0;
    for (const { sentence, finishes } of sentences) {
      // A sentence Coq refuses (the policy would have refused it: `Register`) is skipped, as in Arbor.
      const added = await client.addAndGoals(sentence).then(() => true, async () => false);
      if (!added || finishes === undefined) continue;
      theorems++;
      const name = finishes;
      if (variant === 'two Locate queries') {
        await client.query(`Inspect 2. Locate Term ${name}.`);
        await client.query('Locate bool. Locate eq. Locate true. Locate false.');
      } else if (variant === 'the Locate batches as one query') await client.query(`Inspect 2. Locate Term ${name}. Locate bool. Locate eq. Locate true. Locate false.`);
      else if (variant === 'Set Printing All and back') {
        const tip = client.tip;
        await client.add('Set Printing All.');
        await client.editAt(tip);
      } else if (variant === 'Print and Check, two queries') await client.queriesAfter('Set Printing All.', [`Print ${name}.`, `Check ${name}.`]);
      else if (variant === 'Print and Check, one query') await client.queriesAfter('Set Printing All.', [`Print ${name}. Check ${name}.`]);
      // What printing the proof term costs: END without the assumption judge's `Print`.
      else if (variant === 'Check alone, one query') await client.queriesAfter('Set Printing All.', [`Check ${name}.`]);
      else if (variant === 'Arbor_references and Check, one query') await client.queriesAfter('Set Printing All.', [`Arbor_references ${name}. Check ${name}.`]);
    }
    return { cpu: (cpuMs(pid) ?? 0) - before, theorems };
  } finally {
    await client.dispose();
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export async function runEndQueriesBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const sentences = await sentencesOf(PUBLIC);
  const cpu = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
  let theorems = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of VARIANTS) {
      const r = await run(sentences, v);
      cpu.get(v)?.push(r.cpu);
      theorems = r.theorems;
    }
  }
  const base = median(cpu.get('nothing more') ?? []);
  const rows: BenchRow[] = VARIANTS.map((v) => {
    const ms = median(cpu.get(v) ?? []);
    return { what: `at each of ${theorems} theorems' Qed: ${v} — the prover's CPU (median of ${ROUNDS})`, value: Math.round(ms), unit: 'ms', detail: `runs ${(cpu.get(v) ?? []).map(Math.round).join(' / ')}; ${((ms - base) / Math.max(1, theorems)).toFixed(2)} ms per theorem more than nothing` };
  });
  return { rows, raw: { file: PUBLIC, rounds: ROUNDS, theorems, cpu: Object.fromEntries(cpu) } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runEndQueriesBench();
  printTable(`END's questions: the prover's CPU on Coq's Bool.v (${ROUNDS} alternating rounds, one run)`, rows);
  process.stderr.write(`bench: results: ${await writeResults('end-queries', { date: new Date().toISOString(), rows, raw })}\n`);
}
