import { describe, expect, it } from 'vitest';
import { stepLabels } from './step-labels.ts';

describe('stepLabels', () => {
  it('names each step by the request that made it, per channel, skipping failures', () => {
    const labels = stepLabels([
      { kind: 'request', time: 0, channel: 1, text: '1 GOAL "A"' },
      { kind: 'request', time: 0, channel: 2, text: '2 GOAL "B"' },
      { kind: 'response', time: 1, response: { CHANNEL: 1, RESPONSE: {}, ERR: '', STEP: 1 } },
      { kind: 'request', time: 2, channel: 1, text: '1 APPLY bad' },
      { kind: 'response', time: 2, response: { CHANNEL: 2, RESPONSE: {}, ERR: '', STEP: 1 } },
      { kind: 'response', time: 3, response: { CHANNEL: 1, RESPONSE: null, ERR: 'fail', STEP: 1 } },
      { kind: 'request', time: 4, channel: 1, text: '1 APPLY split' },
      { kind: 'response', time: 5, response: { CHANNEL: 1, RESPONSE: {}, ERR: '', STEP: 2 } },
    ], 1);
    expect([...labels]).toEqual([[1, 'GOAL "A"'], [2, 'APPLY split']]);
  });
});
