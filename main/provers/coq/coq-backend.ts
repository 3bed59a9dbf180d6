import type { ProverBackend } from '../../shell/prover-session.ts';
import { checkCoq } from './coq-check.ts';
import { CoqSession } from './coq-session.ts';
import { checkCoqPrelude } from './prelude-policy.ts';

export const coqBackend: ProverBackend = {
  id: 'coq',
  check: checkCoq,
  checkPrelude: checkCoqPrelude,
  open: (options) => CoqSession.open(options),
};
