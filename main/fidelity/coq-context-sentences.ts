import type { ContextSentence } from '../../shared/fidelity/fidelity-context.ts';
import { CoqideTopClient } from '../provers/coq/coqidetop-client.ts';
import { splitSentences } from '../provers/coq/coq-sentence.ts';
import { runCoqText } from '../provers/coq/coq-text-runner.ts';
import { DEFAULT_PROVER_MEMORY_MB } from '../shell/prover-session.ts';
import { coqImports } from './coq-fidelity-prover.ts';

/** Limit for each context sentence's execution while Coq delimits the context. */
const SENTENCE_MS = 30_000;

/**
 * A fidelity context as Coq delimits it, every sentence judged by the vernacular policy and run, in the
 * place the proof files put it (after their imports, inside `Section arbor_ctx`): its own coqidetop,
 * started through the process manager with the provers' memory cap. The proof tiers' files are then built
 * from these sentences only, never from the text as given. Throws `TextRefused` (parse error, sentence not
 * allowed) or Coq's own error.
 */
export async function coqContextSentences(context: string, options: { needsZ: boolean; classical: boolean }): Promise<ContextSentence[]> {
  const client = await CoqideTopClient.start({ memoryLimitMb: DEFAULT_PROVER_MEMORY_MB });
  try {
    // The files import CoqHammer where it loads: its grammar is part of the parser state the context is read with.
    const imports = `${options.classical ? 'Require Import Classical.\n' : ''}Section arbor_ctx.`;
    const tip = client.tip;
    try {
      for (const s of splitSentences(coqImports(options.needsZ, true))) await client.add(s);
      await client.goals();
    } catch {
      await client.editAt(tip);
      for (const s of splitSentences(coqImports(options.needsZ, false))) await client.add(s);
    }
    for (const s of splitSentences(imports)) await client.add(s);
    await client.goals();
    const ran = await runCoqText(client, context, { purpose: 'fidelity-context', timeoutMs: SENTENCE_MS });
    return ran.map((r) => ({ text: r.text, pp: r.pp }));
  } finally {
    await client.dispose();
  }
}
