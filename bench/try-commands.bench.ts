import { performance } from 'node:perf_hooks';
import type { ShellResponse } from '../shared/protocol/shell-command.ts';
import { AgentSession } from '../main/agent/agent-session.ts';
import { inProcessPort } from '../main/agent/in-process-port.ts';
import type { ShellPort } from '../main/agent/shell-port.ts';
import { attachPort } from '../main/agent/ws-attach-port.ts';
import { createApiService } from '../main/host/api-service.ts';
import { startWebHost } from '../main/host/web-host.ts';
import { Workspace } from '../main/host/workspace.ts';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Shell } from '../main/shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../main/supervisor/engine-factory.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';
import { fiftyLemmaDocument, LEMMAS } from './fifty-lemmas.ts';

/**
 * Issue 22: an agent's `try_commands` on lemma 1 and on lemma 50 of a 50-lemma document (bench/fifty-lemmas.ts),
 * the way an agent works beside the editor: the document is checked up to the lemma's GOAL, the agent tries
 * the lemma's proof (first try after the document moved there, then the same try again). Before: scratch
 * channels that replay the document's requests (AgentSession `forks: false`); after: forks of the channel's
 * state on a warm sibling prover (state-forks.ts); attached: the same forks, reached by an agent attached over
 * the web host's WebSocket (`arbor-mcp --attach`: `fork.try`). Real coqidetop, one run, each way in turn.
 */
const lines = fiftyLemmaDocument();
/** Request lines up to and including lemma k's GOAL (1-based). */
const throughGoal = (k: number): string[] => {
  let goals = 0;
  const end = lines.findIndex((l) => l.startsWith('GOAL ') && ++goals === k);
  return lines.slice(0, end + 1);
};

type Way = 'scratch' | 'forks' | 'attached';

async function measure(way: Way): Promise<Record<string, number>> {
  const factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  const shell = new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude) });
  // Attached: the agent reaches the shell through a web host, as `arbor-mcp --attach URL` does.
  const dir = way === 'attached' ? await mkdtemp(join(tmpdir(), 'arbor-try-bench-')) : undefined;
  let closeHost = async (): Promise<void> => undefined;
  let port: ShellPort = inProcessPort(shell);
  if (dir) {
    await mkdir(join(dir, 'static'));
    const service = createApiService({
      shell, workspace: new Workspace({ root: dir, userDir: join(dir, 'user') }),
      info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
    });
    const host = await startWebHost({ service, staticDir: join(dir, 'static') });
    port = await attachPort(host.url);
    const attached = port;
    closeHost = async () => {
      await attached.close();
      await host.close();
      service.dispose();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const agent = new AgentSession({ port, channel: 0, forks: way !== 'scratch', toolTimeoutMs: 600_000 });
  const send = async (line: string): Promise<void> => {
    const [r] = (await Promise.all(shell.submitLine(`0 ${line}`))) as ShellResponse[];
    if (r?.ERR) throw new Error(`${line}: ${r.ERR}`);
  };
  const tryProof = async (k: number): Promise<number> => {
    const t = performance.now();
    const [result] = await agent.tryCommands([[`APPLY ${(LEMMAS[k - 1] as { proof: string }).proof}`]], { sequential: true });
    if (result?.label !== 'closes_goal') throw new Error(`lemma ${k}: the try did not close the goal: ${JSON.stringify(result)}`);
    return performance.now() - t;
  };
  const out: Record<string, number> = {};
  try {
    let sent = 0;
    for (const k of [1, 50]) {
      const upTo = throughGoal(k);
      for (; sent < upTo.length; sent++) await send(upTo[sent] as string);
      out[`lemma ${k}: first try`] = await tryProof(k);
      out[`lemma ${k}: again`] = await tryProof(k);
    }
  } finally {
    await agent.close();
    await closeHost();
    await shell.close();
    await factory.dispose();
  }
  return out;
}

export async function runTryCommandsBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const before = process.env.ONLY_AFTER ? {} as Record<string, number> : await measure('scratch');
  const after = await measure('forks');
  const attached = await measure('attached');
  const rows: BenchRow[] = [];
  for (const key of Object.keys(after)) {
    rows.push({ what: `${key} — scratch channels (before)`, value: Math.round(before[key] as number), unit: 'ms' });
    rows.push({ what: `${key} — forks (after)`, value: Math.round(after[key] as number), unit: 'ms' });
    rows.push({ what: `${key} — forks, attached over WebSocket`, value: Math.round(attached[key] as number), unit: 'ms' });
  }
  for (const [name, m] of [['forks', after], ['attached', attached]] as const) {
    const flat = (m['lemma 50: first try'] as number) / (m['lemma 1: again'] as number);
    rows.push({ what: `${name}: first try on lemma 50 / a try on lemma 1`, value: Number(flat.toFixed(2)), unit: '×', target: 'flat (≤ 2)', ok: flat <= 2 });
  }
  return { rows, raw: { before, after, attached } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runTryCommandsBench();
  printTable('try_commands on a 50-lemma document: lemma 1 vs lemma 50', rows);
  process.stderr.write(`bench: results: ${await writeResults('try-commands', { date: new Date().toISOString(), rows, raw })}\n`);
}
