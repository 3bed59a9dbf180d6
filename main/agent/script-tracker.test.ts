import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { ScriptTracker } from './script-tracker.ts';
import type { PortEvent } from './shell-port.ts';

const req = (channel: number, text: string): PortEvent => ({ kind: 'request', channel, text, time: 0 });
const res = (response: ShellResponse): PortEvent => ({ kind: 'response', response, time: 0 });
const ok = (channel: number, step?: number): ShellResponse => ({ CHANNEL: channel, RESPONSE: {}, ERR: '', ...(step !== undefined ? { STEP: step } : {}) });

describe('ScriptTracker', () => {
  it('keeps the commands that advanced the step, cut back by REVERT and restarted by GOAL', () => {
    const t = new ScriptTracker(0);
    t.observe(req(0, 'GOAL "True"'));
    t.observe(res(ok(0, 1)));
    t.observe(req(0, '0 APPLY intros'));
    t.observe(res(ok(0, 2)));
    t.observe(req(0, 'APPLY nope'));
    t.observe(res({ CHANNEL: 0, RESPONSE: null, ERR: 'fail', STEP: 2 }));
    t.observe(req(0, 'HAVE H "1 = 1"'));
    t.observe(res(ok(0, 3)));
    t.observe(req(0, 'STATE'));
    t.observe(res(ok(0, 3)));
    expect(t.lines()).toEqual([{ step: 1, text: 'GOAL "True"' }, { step: 2, text: 'APPLY intros' }, { step: 3, text: 'HAVE H "1 = 1"' }]);
    t.observe(req(0, 'REVERT 2'));
    t.observe(res(ok(0, 2)));
    expect(t.lines().map((l) => l.text)).toEqual(['GOAL "True"', 'APPLY intros']);
    t.observe(req(0, 'GOAL "False"'));
    t.observe(res(ok(0, 1)));
    expect(t.replayPlan()).toEqual({ lines: ['GOAL "False"'] });
  });

  it('ignores other channels; NEW_CHANNEL is answered out of band, parse errors in their turn', () => {
    const t = new ScriptTracker(0);
    t.observe(req(0, 'GOAL "True"'));
    t.observe(req(1, '1 GOAL "False"'));
    // Answered at once, before the queued GOAL's response.
    t.observe(req(0, 'NEW_CHANNEL'));
    t.observe(res({ CHANNEL: 0, RESPONSE: { ID: 2 }, ERR: '' }));
    t.observe(req(0, 'HAVE "unclosed'));
    t.observe(res(ok(1, 1)));
    t.observe(res(ok(0, 1)));
    // The parse error's answer comes after the GOAL's, in request order.
    t.observe(res({ CHANNEL: 0, RESPONSE: null, ERR: 'parse error: unclosed quote' }));
    expect(t.lines()).toEqual([{ step: 1, text: 'GOAL "True"' }]);
  });

  it('keeps PRELUDE and PRINT_MODE for replay; a prelude discards the proof', () => {
    const t = new ScriptTracker(3);
    t.observe(req(3, '3 GOAL "True"'));
    t.observe(res(ok(3, 1)));
    t.observe(req(3, '3 PRELUDE "Definition two := 2."'));
    t.observe(res({ CHANNEL: 3, RESPONSE: null, ERR: '' }));
    t.observe(req(3, '3 PRINT_MODE 2'));
    t.observe(res(ok(3)));
    t.observe(req(3, '3 GOAL "two = 2"'));
    t.observe(res(ok(3, 1)));
    expect(t.replayPlan()).toEqual({ prelude: 'PRELUDE "Definition two := 2."', printMode: 'PRINT_MODE 2', lines: ['GOAL "two = 2"'] });
    expect(t.step()).toBe(1);
  });
});

describe('ScriptTracker attached mid-proof', () => {
  it('knows it has no script until it sees a GOAL', () => {
    const t = new ScriptTracker(0);
    t.observe(req(0, 'APPLY intros'));
    t.observe(res(ok(0, 5)));
    expect(t.isComplete()).toBe(false);
    expect(t.lines()).toEqual([]);
    t.observe(req(0, 'GOAL "True"'));
    t.observe(res(ok(0, 1)));
    expect(t.isComplete()).toBe(true);
    expect(t.lines()).toEqual([{ step: 1, text: 'GOAL "True"' }]);
  });
});
