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
});
