import type { ProverBackend } from '../../shell/prover-session.ts';
import { checkCoq } from './coq-check.ts';
import { CoqSession } from './coq-session.ts';
import { checkUntrustedVernacular } from './vernacular-policy.ts';

export const coqBackend: ProverBackend = {
  id: 'coq',
  check: checkCoq,
  checkPrelude: (text) => checkUntrustedVernacular(text, 'prelude'),
  open: (options) => CoqSession.open(options),
};
