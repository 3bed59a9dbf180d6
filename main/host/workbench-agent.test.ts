import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChannelEngine, EngineResult } from '../shell/channel-engine.ts';
import { checkAgainstReference } from '../agent/reference-fidelity.ts';
import { Shell } from '../shell/shell.ts';
import type { AgentEvent } from './workbench-agent.ts';
import { WorkbenchAgent, editsFileOf } from './workbench-agent.ts';
import { Workspace } from './workspace.ts';

/** A unit-test double of a channel engine with no prover (never used by the product): queue and history need none. */
class NoProverEngineDouble implements ChannelEngine {
  async execute(): Promise<EngineResult> {
    return { response: null, error: 'no goal' };
  }
  treeView(): undefined {
    return undefined;
  }
  status() {
    return { backend: 'coq' as const, busy: false, step: 0, finished: false };
  }
  async dispose(): Promise<void> {}
}

/**
 * A unit-test double of a Coq channel engine whose HAMMER fails with a discovered lemma in its report (never
 * used by the product); the report's shape is the one real coqidetop produces in lemma-discovery.test.ts.
 */
class DiscoveringHammerEngineDouble extends NoProverEngineDouble {
  override async execute(): Promise<EngineResult> {
    const lemma = { name: 'total_app', statement: 'forall (l1 : list nat) (l2 : list nat), total (l1 ++ l2) = total l1 + total l2', proof: 'solve [intros; induction l1; simpl; lia]', used: false };
    return { response: null, error: 'fail', step: 2, hammerReport: { stages: [{ stage: 'discovery', tactic: `assert (total_app : ${lemma.statement})`, ms: 9, outcome: 'progress' }], ms: 40, discovered: [lemma] } };
  }
}

describe('workbench agent: sessions per editor channel, events, edit history next to the proof', () => {
  it('a lemma the editor\'s HAMMER discovered reaches the suggestion panel as a HAVE from HAMMER', async () => {
    const root = await mkdtemp(join(tmpdir(), 'arbor-agent-'));
    const shell = new Shell({ createEngine: () => new DiscoveringHammerEngineDouble() });
    const agent = new WorkbenchAgent({ shell, workspace: new Workspace({ root, userDir: join(root, '.user') }), sources: [] });
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    try {
      await agent.focus(0);
      await Promise.all(shell.submitLine('HAMMER'));
      const offered = events.flatMap((e) => (e.kind === 'suggestion' ? [e.suggestion] : []));
      expect(offered).toHaveLength(1);
      expect(offered[0]).toMatchObject({
        from: 'source:HAMMER', label: 'progress', status: 'pending', step: 2,
        apply: ['HAVE total_app "forall (l1 : list nat) (l2 : list nat), total (l1 ++ l2) = total l1 + total l2"', 'APPLY (solve [intros; induction l1; simpl; lia])', 'END'],
      });
      expect(agent.snapshot().suggestions.map((s) => s.from)).toEqual(['source:HAMMER']);
      // The same lemma again (a second HAMMER) is not queued twice while the first is pending.
      await Promise.all(shell.submitLine('HAMMER'));
      expect(agent.snapshot().suggestions).toHaveLength(1);
    } finally {
      await agent.close();
      await shell.close();
    }
  });

  it('focuses a channel, forwards queue and history changes, saves and reloads FILE.arbor.edits.json', async () => {
    const root = await mkdtemp(join(tmpdir(), 'arbor-agent-'));
    const shell = new Shell({ createEngine: () => new NoProverEngineDouble() });
    const workspace = new Workspace({ root, userDir: join(root, '.user') });
    const proof = join(root, 'p.arbor');
    await writeFile(proof, 'GOAL "A"\n');
    const agent = new WorkbenchAgent({ shell, workspace, sources: [] });
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    try {
      expect((await agent.focus(0, proof)).history).toEqual([]);
      const add = () => agent.current().queue.add({ from: 'agent:a', edit: { kind: 'commands', commands: ['APPLY auto'] }, label: 'closes_goal', apply: ['APPLY auto'], step: 1 });
      const first = add();
      const second = agent.current().queue.add({ from: 'agent:a', edit: { kind: 'commands', commands: ['APPLY lia'] }, label: 'progress', apply: ['APPLY lia'], step: 1 });
      expect(agent.decide(first.id, 'accept').status).toBe('accepted');
      expect(agent.decide(second.id, 'reject').status).toBe('rejected');
      expect(() => agent.decide(second.id, 'accept')).toThrow(/bad_argument: suggestion #2 is already rejected/);
      expect(events.map((e) => e.kind)).toEqual(['suggestion', 'suggestion', 'suggestion', 'edit', 'suggestion', 'edit']);
      expect(events.every((e) => e.channel === 0)).toBe(true);
      await agent.saveHistory(proof);
      const saved = JSON.parse(await readFile(editsFileOf(proof), 'utf8')) as { edits: { outcome: string; source: string }[] };
      expect(saved.edits.map((e) => e.outcome)).toEqual(['accepted', 'rejected']);
      // Another agent (a reopened workbench) loads it when the document is focused with its file.
      const again = new WorkbenchAgent({ shell, workspace, sources: [] });
      expect((await again.focus(0, proof)).history.map((r) => r.outcome)).toEqual(['accepted', 'rejected']);
      await again.close();
      await expect(agent.runSources(['nope'])).rejects.toThrow(/unknown suggestion source: nope/);
    } finally {
      await agent.close();
      await shell.close();
    }
  });

  it('checks suggested GOALs against the channel\'s reference statement and attaches the verdict', async () => {
    const root = await mkdtemp(join(tmpdir(), 'arbor-agent-'));
    const shell = new Shell({ createEngine: () => new NoProverEngineDouble() });
    const workspace = new Workspace({ root, userDir: join(root, '.user') });
    // S0/S1 only (no prover): the wiring is under test here, the tiers in reference-fidelity.test.ts.
    const agent = new WorkbenchAgent({ shell, workspace, sources: [], checkGoal: (ref, goal) => checkAgainstReference(ref, goal, null) });
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    const goal = (g: string) => agent.current().queue.add({ from: 'agent:a', edit: { kind: 'commands', commands: [`GOAL "${g}"`] }, label: 'progress', apply: [`GOAL "${g}"`], step: 0 });
    const fidelityOf = (id: number) => agent.snapshot().suggestions.find((s) => s.id === id)?.fidelity;
    try {
      await agent.focus(0);
      const before = goal('forall x : nat, x = x');
      await new Promise((r) => setTimeout(r, 20));
      expect(fidelityOf(before.id)).toBeUndefined();
      agent.setReference(0, 'forall n : nat, n = n');
      await expect.poll(() => fidelityOf(before.id)).toMatchObject({ verdict: 'equivalent', tier: 's1' });
      const other = goal('forall n : nat, n + 0 = n');
      await expect.poll(() => fidelityOf(other.id)).toMatchObject({ verdict: 'unknown' });
      expect(events.some((e) => e.kind === 'suggestion' && e.suggestion.id === before.id && e.suggestion.fidelity?.verdict === 'equivalent')).toBe(true);
      agent.setReference(0, null);
      expect(fidelityOf(before.id)).toBeUndefined();
    } finally {
      await agent.close();
      await shell.close();
    }
  });
});

describe('workbench agent: built-in sources per backend', () => {
  it('an eq workbench offers the equational advisor (not Coq\'s quick tactics); others the quick tactics', async () => {
    const root = await mkdtemp(join(tmpdir(), 'arbor-agent-'));
    const shell = new Shell({ createEngine: () => new NoProverEngineDouble() });
    const workspace = new Workspace({ root, userDir: join(root, '.user') });
    const eq = new WorkbenchAgent({ shell, workspace, backend: 'eq' });
    const coq = new WorkbenchAgent({ shell, workspace });
    expect(eq.sources.map((s) => s.name)).toContain('eq-advisor');
    expect(eq.sources.map((s) => s.name)).not.toContain('quick-tactics');
    expect(coq.sources.map((s) => s.name)).not.toContain('eq-advisor');
    await eq.close();
    await coq.close();
    await shell.close();
  });
});
