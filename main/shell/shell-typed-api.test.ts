import { describe, expect, it } from 'vitest';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ChannelEngine, EngineResult } from './channel-engine.ts';
import { toShellResponse } from './command-result.ts';
import { Shell } from './shell.ts';
import type { ShellEvent } from './shell.ts';

const REPORT = { closedWith: 'lia', stages: [{ stage: 'decision' as const, tactic: 'lia', ms: 3, outcome: 'closed' as const }], ms: 3 };
const TREE: TreeView = { id: 1, kind: 'leaf', status: 'open', step: 1, ctxt: { vars: [], hyps: [] }, goal: 'True' };

/**
 * A unit-test double of a channel engine (never used by the product): each command answers with what the
 * text edge must render in a fixed order — a finishing END with every additive key, a failing HAMMER with
 * its step and report, a query without a step.
 */
class EngineDouble implements ChannelEngine {
  private step = 0;
  async execute(command: Parameters<ChannelEngine['execute']>[0]): Promise<EngineResult> {
    switch (command.name) {
      case 'GOAL': this.step = 1; return { response: { goal: command.expr }, error: '', step: 1 };
      case 'END': return {
        response: { goal: 'done' }, error: '', step: ++this.step, script: 'Theorem t : True. Proof. lia. Qed.', assumptions: [],
        statement: { elaborated: 'True', clean: 'True', differences: [] } as unknown as EngineResult['statement'], hammerReport: REPORT,
      };
      case 'HAMMER': return { response: null, error: 'fail: not closed', step: this.step, hammerReport: { stages: [], ms: 5 } };
      case 'CHECK': return { response: { type: 'nat' }, error: '' };
      default: return { response: command.name, error: '', step: ++this.step };
    }
  }
  treeView(): TreeView | undefined {
    return this.step > 0 ? TREE : undefined;
  }
  status() {
    return { backend: 'coq' as const, busy: false, step: this.step, finished: false };
  }
  async dispose(): Promise<void> {}
}

const newShell = () => new Shell({ createEngine: () => new EngineDouble(), maxChannels: 8 });

describe('the typed shell API and its text edge', () => {
  it('renders every answer byte for byte as the protocol line of the same request (golden)', async () => {
    const shell = newShell();
    const lines = await Promise.all(shell.submitLine('GOAL "True"; END; HAMMER; CHECK 1; FOO; 9 STATE; NEW_CHANNEL'));
    expect(lines.map((r) => JSON.stringify(r))).toEqual([
      '{"CHANNEL":0,"RESPONSE":{"goal":"True"},"ERR":"","STEP":1}',
      '{"CHANNEL":0,"RESPONSE":{"goal":"done"},"ERR":"","STEP":2,"SCRIPT":"Theorem t : True. Proof. lia. Qed.","ASSUMPTIONS":[],'
        + '"STATEMENT":{"elaborated":"True","clean":"True","differences":[]},"HAMMER_REPORT":{"closedWith":"lia","stages":[{"stage":"decision","tactic":"lia","ms":3,"outcome":"closed"}],"ms":3}}',
      '{"CHANNEL":0,"RESPONSE":null,"ERR":"fail: not closed","STEP":2,"HAMMER_REPORT":{"stages":[],"ms":5}}',
      '{"CHANNEL":0,"RESPONSE":{"type":"nat"},"ERR":""}',
      '{"CHANNEL":0,"RESPONSE":null,"ERR":"unknown command: FOO"}',
      '{"CHANNEL":9,"RESPONSE":null,"ERR":"bad channel"}',
      '{"CHANNEL":0,"RESPONSE":{"ID":1},"ERR":""}',
    ]);
    await shell.close();
  });

  it('answers parsed commands with typed results: the tree, the hammer report, errors as values', async () => {
    const shell = newShell();
    const events: ShellEvent[] = [];
    shell.onEvent((e) => events.push(e));
    const opened = await shell.openChannel();
    expect(opened).toMatchObject({ ok: true, opened: 1 });
    const goal = await shell.run(1, { name: 'GOAL', expr: 'True' }, 'GOAL "True"');
    expect(goal).toMatchObject({ ok: true, channel: 1, step: 1, tree: TREE });
    const end = await shell.run(1, { name: 'END' });
    expect(end.ok && end.hammerReport?.closedWith).toBe('lia');
    const hammer = await shell.run(1, { name: 'HAMMER' });
    expect(hammer).toMatchObject({ ok: false, error: 'fail: not closed', step: 2, hammerReport: { stages: [], ms: 5 } });
    expect(shell.tree(1)).toEqual(TREE);
    // The event stream (transcripts, the workbench) still reads as protocol text, rendered from the same values.
    expect(events.filter((e) => e.kind === 'request').map((e) => e.kind === 'request' && e.text)).toEqual(['NEW_CHANNEL', '1 GOAL "True"', '1 END', '1 HAMMER']);
    const last = events.at(-1);
    expect(last?.kind === 'response' && last.response).toEqual(toShellResponse(hammer));
    expect(await shell.release(1)).toMatchObject({ ok: true, channel: 1 });
    expect(await shell.run(1, { name: 'STATE' })).toMatchObject({ ok: false, error: 'bad channel' });
    const again = await shell.openChannel();
    expect(await shell.cancel(again.ok ? again.opened as number : -1)).toMatchObject({ ok: true });
    await shell.close();
  });
});
