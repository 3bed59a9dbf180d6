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

  it('keeps the discovery stage and the lemmas it discovered', () => {
    const report = {
      ms: 30, closedWith: 'assert (f_app : forall l1 l2, f (l1 ++ l2) = f l1 + f l2) by (solve [induction l1; simpl; lia]). solve [intros; induction l; simpl; rewrite ?f_app; simpl; lia].',
      stages: [{ stage: 'discovery', tactic: 'assert (f_app : forall l1 l2, f (l1 ++ l2) = f l1 + f l2)', ms: 20, outcome: 'closed' }],
      discovered: [{ name: 'f_app', statement: 'forall l1 l2, f (l1 ++ l2) = f l1 + f l2', proof: 'solve [induction l1; simpl; lia]', used: true }],
    };
    const t = parseTranscript(JSON.stringify({ time: 1, response: { CHANNEL: 0, RESPONSE: null, ERR: '', HAMMER_REPORT: report } }));
    expect(t.entries[0]?.kind === 'response' && t.entries[0].response.HAMMER_REPORT).toEqual(report);
  });

  it('keeps a conditional END\'s premises and its words (a proof under `Hypothesis H : False` never replays as plainly proved)', () => {
    const premises = [{ kind: 'hypothesis', name: 'H', statement: 'False' }];
    const words = "proved, assuming the section's hypothesis H : False";
    const text = [
      JSON.stringify({ time: 1, response: { CHANNEL: 0, RESPONSE: null, ERR: '', STEP: 3, SCRIPT: 'destruct H.', PREMISES: premises, CONDITIONAL: words } }),
      // A premise of a kind this reader does not know is kept as words only, never dropped silently.
      JSON.stringify({ time: 2, response: { CHANNEL: 0, RESPONSE: null, ERR: '', STEP: 4, PREMISES: [{ kind: 'future', name: 'x', statement: 'T' }], CONDITIONAL: 'proved, assuming x' } }),
    ].join('\n');
    const t = parseTranscript(text);
    expect(t.problems).toEqual([]);
    const rs = t.entries.map((e) => (e.kind === 'response' ? e.response : undefined));
    expect(rs[0]?.PREMISES).toEqual(premises);
    expect(rs[0]?.CONDITIONAL).toBe(words);
    expect(rs[1]?.CONDITIONAL).toBe('proved, assuming x');
  });

});
