import type { QueryCommand } from '../../../shared/protocol/shell-command.ts';
import type { EnvironmentEntry, QueryAnswer } from '../../../shared/protocol/query-answer.ts';
import { SEARCH_LIMIT } from '../../../shared/protocol/query-answer.ts';
import { ProverError } from '../../shell/prover-session.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';
import type { CoqMessage } from './xml-protocol.ts';
import { firstLocated, moduleOf, parseAbout, parseCheck, parseLocate, parsePrint, parseSearchResult } from './coq-queries.ts';
import { guard, toProverError } from './coq-errors.ts';
import { notices } from './statement-reading.ts';

/** How long past a query's own `Timeout` we wait for coqidetop before interrupting it (as for tactics). */
const GRACE_MS = 2000;
const secs = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** SEARCH, CHECK, ABOUT, PRINT, LOCATE at the tip (inside a proof, its hypotheses are in scope). */
export async function answerQuery(client: CoqideTopClient, q: QueryCommand, timeoutMs: number): Promise<QueryAnswer> {
  const limit = Math.min(timeoutMs, 10_000);
  const ask = async (sentence: string): Promise<CoqMessage[]> => {
    try {
      return (await client.query(sentence, client.tip, limit + GRACE_MS)).filter((m) => m.level === 'notice');
    } catch (e) {
      throw toProverError(e);
    }
  };
  const ident = (n: string): string => {
    // A no-break space is a name's character to Coq's lexer (as `_` is).
    if (!/^"[^"\n]*"$/.test(n) && !/^[\p{L}_\u00a0][\p{L}\p{N}_'.\u00a0]*$/u.test(n)) throw new ProverError('parse', `parse error: bad name '${n}'`);
    return n;
  };
  switch (q.name) {
    case 'SEARCH': {
      const pattern = guard('pattern', q.pattern);
      const found = (await ask(`Timeout ${secs(limit)} Search (${pattern}).`)).map((m) => parseSearchResult(m.text)).filter((e): e is EnvironmentEntry => e !== undefined);
      const results = found.slice(0, SEARCH_LIMIT);
      for (const r of results) {
        // A result is a term: `Locate Term` (a bare `Locate` refuses `Term`, `Module`, … as names).
        const located = firstLocated(notices(await ask(`Locate Term ${r.name}.`).catch(() => [])));
        if (located) {
          r.kind = located.kind;
          const module = moduleOf(located.fullName);
          if (module !== undefined) r.module = module;
        }
      }
      return { pattern: q.pattern, results, truncated: found.length > results.length };
    }
    case 'CHECK': {
      const term = guard('term', q.term);
      const answer = parseCheck(notices(await ask(`Check (${term}).`)));
      if (!answer) throw new ProverError('prover', 'internal error: unreadable Check output');
      return answer;
    }
    case 'ABOUT': {
      const answer = parseAbout(notices(await ask(`About ${ident(q.ident)}.`)), q.ident);
      if (!answer) throw new ProverError('prover', `${q.ident} not found`);
      return answer;
    }
    case 'PRINT':
      // `Print Term`: a name may be a `Print` subcommand (`Hint`, `Classes`…), which `Print NAME.` would run instead.
      return parsePrint(notices(await ask(`Print Term ${ident(q.ident)}.`)), q.ident);
    case 'LOCATE': {
      const answer = parseLocate(notices(await ask(`Locate ${ident(q.ident)}.`)), q.ident);
      for (const r of answer.results) if (/^Top\./.test(r.name) && r.kind !== 'Notation') r.name = r.name.replace(/^Top\./, '');
      return answer;
    }
  }
}
