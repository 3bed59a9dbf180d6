import type { TranscriptEntry } from './parse-transcript.ts';

/**
 * What made each step of a channel: the request whose response carried that STEP (without its channel
 * id), from a transcript (live or loaded). Requests of a channel are answered in order, so the n-th
 * response of the channel answers its n-th request.
 */
export function stepLabels(entries: readonly TranscriptEntry[], channel: number): Map<number, string> {
  const pending: string[] = [];
  const labels = new Map<number, string>();
  for (const e of entries) {
    if (e.kind === 'request') {
      if (e.channel === channel) pending.push(e.text.replace(/^\s*[0-9]+\s+/, '').trim());
      continue;
    }
    if (e.response.CHANNEL !== channel) continue;
    const text = pending.shift();
    if (text !== undefined && e.response.ERR === '' && e.response.STEP !== undefined) labels.set(e.response.STEP, text);
  }
  return labels;
}
