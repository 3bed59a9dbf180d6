import { environmentProblem } from './environments.ts';
import type { ProverBackend } from '../../shell/prover-session.ts';
import { checkCoq } from './coq-check.ts';
import { CoqSession } from './coq-session.ts';
import { precheckUntrusted } from './vernacular-policy.ts';
import { cleanEnvironment } from './statement-reading.ts';

export const coqBackend: ProverBackend = {
  id: 'coq',
  check: checkCoq,
  // Only what is refused before Coq reads it: Coq delimits the prelude and the policy judges its sentences as the session boots.
  checkPrelude: (text) => precheckUntrusted(text, 'prelude'),
  checkEnvironment: environmentProblem,
  open: (options) => CoqSession.open(options),
  // The clean environment every session's statement judge reads in: no prover outlives the backend's user.
  dispose: () => cleanEnvironment.dispose(),
};
