import { describe, expect, it } from 'vitest';
import type { VFileReport } from '../../shared/derivation/v-file-derivation.ts';
import { createArborStore } from './store.ts';

/**
 * Attack (atk-vfile): the unlucky user opens the same slow `.v` file twice. The host cancels the first run
 * for the second; the first run's cancelled report then arrives for the same path while the second is
 * still reading, and replaced its state (no progress bar, no Cancel, "cancelled" shown for a run going on).
 */
describe('.v file opened again while it is read (attack)', () => {
  const cancelled: VFileReport = { theorems: [], sentences: 3, stopped: { line: 4, message: 'cancelled at line 4', cancelled: true }, ms: 10 };
  const done: VFileReport = { theorems: [], sentences: 9, ms: 20 };

  it('the first run\'s late (cancelled) report does not replace the second run, which still shows its progress and answers', () => {
    const store = createArborStore();
    const first = store.getState().startVFile('/w/List.v', 'text');
    const second = store.getState().startVFile('/w/List.v', 'text');
    expect(second).not.toBe(first);
    store.getState().receiveVFile('/w/List.v', cancelled, undefined, first);
    expect(store.getState().vfile).toMatchObject({ loading: true, report: null });
    store.getState().vFileProgress('/w/List.v', { sentences: 5, line: 7, lines: 9, theorems: 0, lastTheorems: [] });
    expect(store.getState().vfile.progress?.line).toBe(7);
    store.getState().receiveVFile('/w/List.v', done, undefined, second);
    expect(store.getState().vfile).toMatchObject({ loading: false, report: done });
  });
});
