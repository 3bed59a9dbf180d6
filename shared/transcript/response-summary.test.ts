import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.ts';
import { responseSummary } from './response-summary.ts';

describe('a transcript row for a response', () => {
  it('says a replayed END under a section hypothesis is conditional, and leaves other rows as they were', () => {
    const premises = [{ kind: 'hypothesis', name: 'H', statement: 'False' }];
    const t = parseTranscript([
      JSON.stringify({ time: 1, response: { CHANNEL: 0, RESPONSE: null, ERR: '', STEP: 3, PREMISES: premises, CONDITIONAL: "proved, assuming the section's hypothesis H : False" } }),
      // An older writer with premises but no words: the words are made from them.
      JSON.stringify({ time: 2, response: { CHANNEL: 0, RESPONSE: null, ERR: '', STEP: 4, PREMISES: premises } }),
      JSON.stringify({ time: 3, response: { CHANNEL: 0, RESPONSE: null, ERR: '', STEP: 5 } }),
      JSON.stringify({ time: 4, response: { CHANNEL: 0, RESPONSE: null, ERR: 'fail' } }),
    ].join('\n'));
    expect(t.entries.map((e) => (e.kind === 'response' ? responseSummary(e.response) : ''))).toEqual([
      "step 3 ◐ proved, assuming the section's hypothesis H : False",
      "step 4 ◐ proved, assuming the section's hypothesis H : False",
      'step 5',
      'ERR fail',
    ]);
  });
});
