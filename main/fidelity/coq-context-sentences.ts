import type { ContextSentence } from '../../shared/fidelity/fidelity-context.ts';
import type { StatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import { CoqFailure, CoqideTopClient } from '../provers/coq/coqidetop-client.ts';
import { splitSentences } from '../provers/coq/coq-sentence.ts';
import { runCoqText } from '../provers/coq/coq-text-runner.ts';
import { judgeStatement } from '../provers/coq/statement-judge.ts';
import { DEFAULT_PROVER_MEMORY_MB, type ProjectArgs } from '../shell/prover-session.ts';
import { coqImports } from './coq-fidelity-prover.ts';

/** Limit for each context sentence's execution while Coq delimits the context. */
const SENTENCE_MS = 30_000;
const READ_MS = 10_000;

export interface ContextReading {
  sentences: ContextSentence[];
  /** Each statement's meaning when, as elaborated in the context, it differs from its clean reading. */
  statements: { canonical?: StatementMeaning; candidate?: StatementMeaning };
}

/**
 * A fidelity context as Coq delimits it, every sentence judged by the vernacular policy and run, in the
 * place the proof files put it (after their imports, inside `Section arbor_ctx`): its own coqidetop,
 * started through the process manager with the provers' memory cap. The proof tiers' files are then built
 * from these sentences only, never from the text as given. With the context in place, each statement is
 * read as Coq elaborates it there and judged against its clean reading (statement-judge.ts, the judge of
 * finished proofs). Throws `TextRefused` (parse error, sentence not allowed) or Coq's own error.
 */
export async function coqContextReading(
  context: string,
  options: { needsZ: boolean; classical: boolean; statements?: { canonical: string; candidate: string }; project?: ProjectArgs },
): Promise<ContextReading> {
  // A trusted project's load paths, as the proof tiers' coqc runs get them (the context may Require its library).
  const project = options.project;
  const clientOptions = { memoryLimitMb: DEFAULT_PROVER_MEMORY_MB, ...(project !== undefined ? { extraArgs: [...project.args], sandbox: { readOnly: [...project.readOnly] } } : {}) };
  const client = await CoqideTopClient.start(clientOptions);
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
    const sentences = ran.map((r) => ({ text: r.text, pp: r.pp }));
    const statements: ContextReading['statements'] = {};
    if (options.statements) {
      // The proof files' own library imports are library sentences like a document's (the clean reading runs them too).
      const declarations = [...splitSentences(coqImports(options.needsZ, false)), ...splitSentences(imports), ...sentences.map((s) => s.text)];
      await client.add('Set Printing All.', READ_MS);
      await client.goals(READ_MS);
      for (const which of ['canonical', 'candidate'] as const) {
        const text = options.statements[which];
        const at = client.tip;
        try {
          await client.add(`Theorem arbor_reading : (${text}).`, READ_MS);
          const printed = (await client.goals(READ_MS)).goals?.[0]?.goal;
          const meaning = printed === undefined ? undefined : await judgeStatement(client, printed, client.tip, text, declarations, clientOptions);
          if (meaning) statements[which] = meaning;
        } catch (e) {
          // Ill-typed here: the type-check tier says so in the verdict. Any other failure is said, never dropped.
          if (!(e instanceof CoqFailure)) statements[which] = { elaborated: text, clean: null, differences: [`its elaborated form could not be read (${(e as Error).message}): its meaning was not checked`] };
        } finally {
          if (client.alive) await client.editAt(at).catch(() => undefined);
        }
      }
    }
    return { sentences, statements };
  } finally {
    await client.dispose();
  }
}
