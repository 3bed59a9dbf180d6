import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.ts';
import { stateToTreeView } from './state-to-tree-view.ts';

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

  it('turns a seed-format state into a tree view with current markers', () => {
    const empty = { vars: [], hyps: [] };
    const view = stateToTreeView({ ctxt: empty, goal: [{ ctxt: empty, goal: 'True' }, { ctxt: empty, goal: 'B' }] });
    expect(view?.kind).toBe('bundle');
    expect(view?.children?.[0]).toMatchObject({ status: 'proved', current: 'goal' });
    expect(stateToTreeView({ ID: 1 })).toBeNull();
  });
});
