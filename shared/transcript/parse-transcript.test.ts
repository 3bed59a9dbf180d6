import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.ts';

describe('transcripts', () => {
  it('parses requests and responses and skips bad lines', () => {
    const text = [
      '{"time":1,"channel":0,"request":"GOAL \\"A\\""}',
      '{"time":2,"response":{"CHANNEL":0,"RESPONSE":{"ctxt":{"vars":[],"hyps":[]},"goal":"A"},"ERR":"","STEP":1}}',
      'garbage',
    ].join('\n');
    const t = parseTranscript(text);
    expect(t.entries).toHaveLength(2);
    expect(t.problems).toEqual([{ line: 3, message: 'not JSON' }]);
  });

  it('keeps a failed HAMMER\'s report with its refutation stage, and drops a report it cannot read (not the response)', () => {
    const report = { ms: 412, stages: [{ stage: 'refutation', ms: 400, outcome: 'refuted', detail: 'n = 1' }] };
    const text = [
      JSON.stringify({ time: 1, response: { CHANNEL: 0, RESPONSE: null, ERR: 'fail: the goal is false: n = 1 (a counterexample Coq checked)', HAMMER_REPORT: report } }),
      JSON.stringify({ time: 2, response: { CHANNEL: 0, RESPONSE: null, ERR: 'fail', HAMMER_REPORT: { ms: 1, stages: [{ stage: 'future', ms: 1, outcome: 'odd' }] } } }),
    ].join('\n');
    const t = parseTranscript(text);
    expect(t.problems).toEqual([]);
    expect(t.entries.map((e) => e.kind === 'response' && e.response.HAMMER_REPORT)).toEqual([report, undefined]);
  });

});
