import type { ProverBackend } from '../../shell/prover-session.ts';
import { checkCoq } from './coq-check.ts';
import { CoqSession } from './coq-session.ts';
import { splitSentences } from './coq-sentence.ts';

/**
 * Vernacular a protocol-supplied prelude (possibly from an agent) may not contain: file and process
 * access, loading code, and axioms (a script must stay "Closed under the global context").
 */
const REFUSED = /^(#\[[^\]]*\]\s*)?(Redirect|Load|Cd|Declare\s+ML\s+Module|Add\s+(Rec\s+)?LoadPath|Add\s+ML\s+Path|(Recursive\s+|Separate\s+)?Extraction|Extract|Drop|Quit|Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|Variables|Admitted|Time|Timeout|Fail|Succeed|Set\s+Extraction)\b/;

export const coqBackend: ProverBackend = {
  id: 'coq',
  check: checkCoq,
  checkPrelude(text: string): string | undefined {
    if (/\badmit\b|\bAdmitted\b/.test(text)) return 'prelude refused: admit';
    for (const s of splitSentences(text)) {
      const hit = REFUSED.exec(s);
      if (hit) return `prelude refused: ${hit[2] ?? 'command'}`;
    }
    return undefined;
  },
  open: (options) => CoqSession.open(options),
};
