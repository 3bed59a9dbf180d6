import { selectChannelTrees } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';

/** Replays the active document's proof from its first step to the latest, one step a second (teaching, debugging an agent's run). */
let timer: ReturnType<typeof setInterval> | undefined;

export function isPlaying(): boolean {
  return timer !== undefined;
}

export function stopPlaying(): void {
  clearInterval(timer);
  timer = undefined;
  useArbor.setState((s) => ({ proof: { ...s.proof } }));
}

export function playHistory(intervalMs = 1000): void {
  const s = useArbor.getState();
  const trees = selectChannelTrees(s);
  if (!trees) return;
  const steps = Object.keys(trees.byStep).map(Number).sort((a, b) => a - b);
  if (steps.length < 2) return;
  const current = s.proof.historyStep;
  // From the start, unless paused somewhere in the middle.
  let i = current === null || current === steps.at(-1) ? 0 : Math.max(0, steps.indexOf(current));
  s.setHistoryStep(steps[i] ?? null);
  timer = setInterval(() => {
    i += 1;
    if (i >= steps.length - 1) {
      stopPlaying();
      useArbor.getState().setHistoryStep(null);
      return;
    }
    useArbor.getState().setHistoryStep(steps[i] ?? null);
  }, intervalMs);
}
