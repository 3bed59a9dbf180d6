import { missingSteps, selectGoalsAtCursor } from '../store/goals-at-cursor.ts';
import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';

/**
 * The goals panel reads each step's tree from the renderer's copies; a step older than the renderer keeps
 * (its history is bounded) is asked of the host, which holds every checked line's state (no prover runs).
 */
const inFlight = new Set<string>();

export function followCursorGoals(): () => void {
  return useArbor.subscribe((s) => {
    const uri = s.documents.activeUri;
    const channel = uri ? s.documents.docs[uri]?.channel : undefined;
    const check = uri ? s.checking[uri] : undefined;
    if (channel === undefined || !check) return;
    for (const step of missingSteps(selectGoalsAtCursor(s), check)) {
      const key = `${channel}:${step}`;
      if (inFlight.has(key) || key in s.cursor.fetched) continue;
      inFlight.add(key);
      api.fetchTree(channel, step).then((snapshot) => {
        useArbor.getState().putFetchedTree(channel, step, snapshot?.tree ?? null);
      }, () => {
        useArbor.getState().putFetchedTree(channel, step, null);
      }).finally(() => inFlight.delete(key));
    }
  });
}
