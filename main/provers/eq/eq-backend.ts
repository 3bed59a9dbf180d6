/** The equational (AIM) backend: an in-process engine; E prover is optional automation. */
import { existsSync } from 'node:fs';
import type { BackendCheck, ProverBackend, ProverSession, SessionOptions } from '../../shell/prover-session.ts';
import { parseArticle } from './article.ts';
import { EPROVER } from './eprover.ts';
import { EqSession } from './eq-session.ts';
import { TermBank } from './term.ts';

export const eqBackend: ProverBackend = {
  id: 'eq',
  async check(): Promise<BackendCheck> {
    const hasE = existsSync(EPROVER);
    return {
      backend: 'eq',
      available: true,
      details: ['in-process AIM engine (completion, rewriting, AIMLEAP-style search)', hasE ? `E prover: ${EPROVER}` : 'E prover: not found'],
      problems: hasE ? [] : [`E prover not found at ${EPROVER}: HAMMER uses completion only (install: apt-get install eprover)`],
    };
  },
  checkPrelude(text: string): string | undefined {
    try {
      parseArticle(new TermBank(), text);
      return undefined;
    } catch (err) {
      return `parse error: prelude is not an ARTICLE: ${(err as Error).message}`;
    }
  },
  async open(options: SessionOptions): Promise<ProverSession> {
    return new EqSession(options);
  },
};
