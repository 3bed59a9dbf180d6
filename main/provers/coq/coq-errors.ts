import { ProverError } from '../../shell/prover-session.ts';
import { CoqCrash, CoqFailure, CoqTimeout } from './coqidetop-client.ts';
import { coqFlat, coqTrim, fragmentProblem, isIdent } from './coq-sentence.ts';

/** Coq's message on one line, with Coq's blanks only: a no-break space inside a name it names is kept. */
const flat = coqFlat;

/** Coq's answers and our client's failures, as the shell's stable error codes. */
export const toProverError = (e: unknown): ProverError => {
  if (e instanceof ProverError) return e;
  if (e instanceof CoqTimeout) return new ProverError('timeout', 'timeout');
  if (e instanceof CoqCrash) return new ProverError('crashed', `crashed: ${e.message}`);
  if (e instanceof CoqFailure) {
    const msg = flat(e.message);
    // Arbor interrupts a call only at a time limit (`Timeout`, a HAMMER's deadline): both are timeouts.
    if (msg === 'Timeout!' || msg === 'User interrupt.') return new ProverError('timeout', 'timeout');
    if (/^Syntax error|^Syntax Error|Lexer:/.test(msg)) return new ProverError('parse', `parse error: ${msg}`);
    return new ProverError('prover', msg);
  }
  return new ProverError('prover', e instanceof Error ? e.message : String(e));
};

export const isTimeout = (e: unknown): boolean => toProverError(e).code === 'timeout';

/** A client's text as one sentence fragment (the injection guard), else a `parse` error. */
export const guard = (what: string, text: string): string => {
  const problem = fragmentProblem(text);
  if (problem !== undefined) throw new ProverError('parse', `parse error: ${what}: ${problem}`);
  // Coq's blanks only: a no-break space at either end is part of the first or last name (`⍽True` is not `True`).
  return coqTrim(text);
};

/** Runs validations whose failure must leave the document unchanged, as `refused` errors. */
export const refusing = <T>(validate: () => T): T => {
  try {
    return validate();
  } catch (e) {
    throw new ProverError('refused', toProverError(e).message);
  }
};

export const guardName = (name: string): string => {
  if (!isIdent(name)) throw new ProverError('parse', `parse error: bad name '${name}'`);
  return name;
};
