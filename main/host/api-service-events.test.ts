import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api/api-contract.ts';
import type { ChannelEngine, EngineResult } from '../shell/channel-engine.ts';
import { Shell } from '../shell/shell.ts';
import { createApiService } from './api-service.ts';
import { Workspace } from './workspace.ts';

/** A unit-test double of a channel engine (never used by the product): every proof command is one step. */
class StepDouble implements ChannelEngine {
  private steps = 0;
  async execute(): Promise<EngineResult> {
    this.steps += 1;
    return { response: { goal: 'x', children: [] }, error: '', step: this.steps };
  }
  treeView() {
    return undefined;
  }
  status() {
    return { backend: 'coq' as const, busy: false, step: this.steps, finished: false };
  }
  async dispose(): Promise<void> {}
}

describe('the API service\'s events for one command', () => {
  it('one request, one response, one tree change and one channels event per command', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arbor-events-'));
    const shell = new Shell({ createEngine: () => new StepDouble() });
    const service = createApiService({
      shell,
      workspace: new Workspace({ root: dir, userDir: join(dir, 'user') }),
      info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
    });
    const events: ApiEvent['kind'][] = [];
    service.onEvent((e) => events.push(e.kind));
    try {
      await Promise.all(shell.submitLine('APPLY simpl'));
      // Microtasks queued by the answer (none expected) would land before this resolves.
      await new Promise<void>((resolve) => { queueMicrotask(resolve); });
      const count = (kind: ApiEvent['kind']): number => events.filter((k) => k === kind).length;
      expect({ request: count('request'), response: count('response'), tree: count('tree'), channels: count('channels') })
        .toEqual({ request: 1, response: 1, tree: 1, channels: 1 });
      expect(events).toHaveLength(4);
    } finally {
      service.dispose();
      await shell.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
