/**
 * What a finished proof's statement means, when that differs from how its text reads in a clean
 * environment (standard library and Arbor's prelude only): the END that finishes the proof carries it as
 * `STATEMENT` (issue 21). Absent: the text means what it says there.
 */
export interface StatementMeaning {
  /** The statement as Coq elaborated it: notations unfolded, coercions and implicit arguments explicit, names fully qualified. */
  elaborated: string;
  /** The same text read in a clean environment, the same way; null when it does not elaborate there. */
  clean: string | null;
  /** What differs, in plain words (`here \`Coq.Init.Logic.True\` stands where a clean reading has \`Coq.Init.Logic.False\``). */
  differences: string[];
}

/** A verdict on a proved statement: `proved` only when it means what its text says in a clean environment. */
export const provedVerdict = (statement: StatementMeaning | undefined): 'proved' | 'proved-different-meaning' =>
  statement === undefined ? 'proved' : 'proved-different-meaning';

/** One paragraph for people (the workbench's Messages): what was proved, as Coq read it, and what differs. */
export const formatStatementMeaning = (m: StatementMeaning): string =>
  [
    `Proved, but the statement does not mean what its text says in a clean environment. Coq proved: ${m.elaborated}`,
    m.clean === null ? 'In a clean environment the text does not elaborate.' : `In a clean environment the text reads: ${m.clean}`,
    ...m.differences.map((d) => `• ${d}`),
  ].join('\n');
