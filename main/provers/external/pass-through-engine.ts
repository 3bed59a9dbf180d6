import { z } from 'zod';
import type { Goal } from '../../../shared/proof-tree/proof-state.ts';
import type { TreeView } from '../../../shared/proof-tree/proof-tree.ts';
import { isFinishedState, parseStateJson, treeViewFromState } from '../../../shared/proof-tree/from-state-json.ts';
import type { ChannelEngine, ChannelStatus, DerivationAnswer, EngineCommand, EngineResult } from '../../shell/channel-engine.ts';
import type { PrintMode } from '../../shell/prover-session.ts';
import { LineProcess, LineProcessExited, LineTimeout, describeExit } from '../../process/line-process.ts';
import { printCommand } from './print-command.ts';


export interface PassThroughOptions {
  /** The external process (e.g. another arbor-shell), which speaks the channel protocol on stdio. */
  command: string;
  args?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Default limit of a command (HAMMER with a timeout uses its own), milliseconds. */
  timeoutMs: number;
  /** Extra time beyond a command's limit before Arbor kills the process and replays (default 30 s). */
  graceMs?: number;
  /** Sent as `PRELUDE "…"` after every start (line breaks become blanks: requests are one line). */
  prelude?: string;
  /** Extra time for the first answer of a new process, which may load a heap first (default 60 s). */
  startupMs?: number;
}

/** One response line of the channel protocol, as the seed defines it (additive keys allowed). */
const responseSchema = z.object({
  CHANNEL: z.number(),
  RESPONSE: z.unknown(),
  ERR: z.string(),
  STEP: z.number().optional(),
  SCRIPT: z.string().optional(),
}).passthrough();
type Response = z.infer<typeof responseSchema>;

/** The state after step n (index n-1), with the request that made it, for replay. */
interface HistoryEntry {
  request: string;
  state: Goal;
  view: TreeView;
  /** The process's own step number, when it reports one (then it can REVERT itself). */
  remoteStep?: number;
  script?: string;
}

class EngineFailure extends Error {}

/**
 * A channel served by an external process that already speaks the channel protocol (a prover's own shell,
 * or another arbor-shell). One process per Arbor channel, on its channel 0, so a crash stays in its
 * channel. Arbor keeps what the process may lack: the step history (for STEP and REVERT, which restarts
 * the process and replays when the process cannot revert itself), the last state (STATE) and the tree
 * view. A crash, malformed output or a command past its limit kills the process, restarts it and replays
 * to the last good step; the command answers with a clear error.
 */
export class PassThroughEngine implements ChannelEngine {
  private proc: LineProcess | undefined;
  private history: HistoryEntry[] = [];
  private printMode: PrintMode = 1;
  private busy = false;
  private disposed = false;
  /** Set when the process could not even start: reported once per command, without retry storms. */
  private unavailable: string | undefined;
  /** The process that has not answered yet gets `startupMs` more for its first answer. */
  private fresh = new WeakSet<LineProcess>();

  constructor(private readonly options: PassThroughOptions) {}

  status(): ChannelStatus {
    const last = this.history[this.history.length - 1];
    const status: ChannelStatus = { backend: 'external', busy: this.busy, step: this.history.length, finished: last ? isFinishedState(last.state) : false };
    const pid = this.proc?.alive ? this.proc.pid : undefined;
    if (pid !== undefined) status.pid = pid;
    return status;
  }

  /** No recorded derivation: see the reason. */
  derivation(): DerivationAnswer {
    return { unavailable: 'the external prover keeps its own proof tree: Arbor sees only its states, not which goal each step replaced' };
  }

  treeView(step = this.history.length): TreeView | undefined {
    return this.history[step - 1]?.view;
  }

  /** The reproduction script the process returned with the END that finished the proof, if any. */
  reproductionScript(): string | undefined {
    for (let i = this.history.length - 1; i >= 0; i--) {
      const script = this.history[i]?.script;
      if (script !== undefined) return script;
    }
    return undefined;
  }

  async execute(command: EngineCommand): Promise<EngineResult> {
    this.busy = true;
    try {
      return await this.run(command);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { response: null, error: message, ...(this.history.length > 0 ? { step: this.history.length } : {}) };
    } finally {
      this.busy = false;
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const proc = this.proc;
    this.proc = undefined;
    await proc?.kill();
  }

  private async run(command: EngineCommand): Promise<EngineResult> {
    if (this.disposed) throw new EngineFailure('bad channel');
    switch (command.name) {
      case 'PRELUDE': throw new EngineFailure('PRELUDE is handled by the shell');
      case 'STATE': return this.current();
      case 'REVERT': return this.revert(command.step);
      case 'SCRIPT': return this.script();
      case 'PRINT_MODE': {
        const r = await this.send(printCommand(command), this.options.timeoutMs);
        if (r.ERR !== '') return this.failed(r);
        this.printMode = command.mode;
        const last = this.history[this.history.length - 1];
        const state = parseStateJson(r.RESPONSE);
        if (last && state) this.history[this.history.length - 1] = { ...last, state, view: treeViewFromState(state, { step: this.history.length, previous: last.view }) };
        return last ? this.current() : { response: r.RESPONSE, error: '' };
      }
      default: {
        const line = printCommand(command);
        const limit = command.name === 'HAMMER' && command.timeoutSeconds !== undefined ? command.timeoutSeconds * 1000 : this.options.timeoutMs;
        const r = await this.send(line, limit);
        if (r.ERR !== '') return this.failed(r);
        const state = parseStateJson(r.RESPONSE);
        if (!state) {
          await this.restart(`malformed response from the external process (not a proof state): ${clip(JSON.stringify(r.RESPONSE))}`);
          throw new Error('unreachable');
        }
        if (command.name === 'GOAL') this.history = [];
        const step = this.history.length + 1;
        const entry: HistoryEntry = { request: line, state, view: treeViewFromState(state, { step, ...(this.history.length > 0 ? { previous: this.history[this.history.length - 1]?.view } : {}) }) };
        if (r.STEP !== undefined) entry.remoteStep = r.STEP;
        if (r.SCRIPT !== undefined) entry.script = r.SCRIPT;
        this.history.push(entry);
        const result: EngineResult = { response: r.RESPONSE, error: '', step };
        if (r.SCRIPT !== undefined) result.script = r.SCRIPT;
        return result;
      }
    }
  }

  private current(): EngineResult {
    const last = this.history[this.history.length - 1];
    if (!last) return { response: null, error: '' };
    return { response: last.state, error: '', step: this.history.length };
  }

  private failed(r: Response): EngineResult {
    return { response: r.RESPONSE ?? null, error: r.ERR, ...(this.history.length > 0 ? { step: this.history.length } : {}) };
  }

  private async script(): Promise<EngineResult> {
    if (this.history.length === 0) throw new EngineFailure('no goal');
    const r = await this.send('SCRIPT', this.options.timeoutMs);
    if (r.ERR === '' && typeof r.RESPONSE === 'string') return { response: r.RESPONSE, error: '' };
    // A process without the SCRIPT extension still returned one with the END that finished the proof.
    const saved = this.reproductionScript();
    if (saved !== undefined) return { response: saved, error: '' };
    return { response: null, error: r.ERR !== '' ? r.ERR : 'no script' };
  }

  private async revert(step: number): Promise<EngineResult> {
    if (this.history.length === 0) throw new EngineFailure('no goal');
    if (step < 1 || step > this.history.length) throw new EngineFailure(`bad step: ${step} (1..${this.history.length})`);
    const target = this.history[step - 1] as HistoryEntry;
    let reverted = false;
    if (target.remoteStep !== undefined) {
      const r = await this.send(`REVERT ${target.remoteStep}`, this.options.timeoutMs);
      reverted = r.ERR === '';
    }
    this.history = this.history.slice(0, step);
    if (!reverted) await this.restartAndReplay();
    return this.current();
  }

  /** Sends one request and reads its response; any trouble with the process ends in restart + replay. */
  private async send(line: string, limitMs: number): Promise<Response> {
    const proc = await this.ensureProcess();
    const deadline = limitMs + (this.options.graceMs ?? 30_000);
    let text: string;
    try {
      proc.write(line);
      do text = await proc.nextLine(deadline + this.startupAllowance(proc)); while (text.trim() === '');
    } catch (err) {
      if (this.disposed) throw new EngineFailure('bad channel');
      if (err instanceof LineTimeout) {
        await this.restart('timeout', true);
      }
      if (err instanceof LineProcessExited) {
        await this.restart(`crashed: the external process ${describeExit(err.exit, err.stderrTail)}`);
      }
      throw err;
    }
    let parsed: Response;
    try {
      const json: unknown = JSON.parse(text);
      const checked = responseSchema.safeParse(json);
      if (!checked.success) throw new Error('not a channel-protocol response');
      parsed = checked.data;
    } catch {
      await this.restart(`malformed response from the external process: ${clip(text)}`);
      throw new Error('unreachable');
    }
    if (parsed.CHANNEL !== 0) await this.restart(`malformed response from the external process: answer for channel ${parsed.CHANNEL}`);
    return parsed;
  }

  private async ensureProcess(): Promise<LineProcess> {
    if (this.disposed) throw new EngineFailure('bad channel');
    if (this.unavailable !== undefined) throw new EngineFailure(this.unavailable);
    if (this.proc?.alive) return this.proc;
    const proc = new LineProcess({
      command: this.options.command,
      args: this.options.args ?? [],
      ...(this.options.cwd !== undefined ? { cwd: this.options.cwd } : {}),
      ...(this.options.env !== undefined ? { env: this.options.env } : {}),
      // Sandboxed (it reads untrusted text): its working directory read-only, Arbor's own settings
      // (ARBOR_*) passed on, so another arbor-shell inside finds its provers (and sandboxes them in turn).
      sandbox: { passEnv: Object.keys(this.options.env ?? process.env).filter((name) => name.startsWith('ARBOR_')) },
    });
    this.proc = proc;
    this.fresh.add(proc);
    // A command that cannot be spawned at all fails on the next tick; report it as unavailable.
    await new Promise((resolve) => setImmediate(resolve));
    if (!proc.alive) {
      const exit = await proc.whenExited();
      if (exit.error !== undefined) {
        this.unavailable = `unavailable: ${exit.error}`;
        throw new EngineFailure(this.unavailable);
      }
    }
    if (this.options.prelude !== undefined) {
      const r = await this.sendRaw(proc, `PRELUDE "${this.options.prelude.replace(/[\r\n]+/g, ' ').replace(/"/g, '\\"')}"`);
      if (r.ERR !== '') throw new EngineFailure(`prelude rejected by the external process: ${r.ERR}`);
    }
    return proc;
  }

  private startupAllowance(proc: LineProcess): number {
    if (!this.fresh.has(proc)) return 0;
    this.fresh.delete(proc);
    return this.options.startupMs ?? 60_000;
  }

  /** For replay and preludes: a plain exchange whose failures are reported, not recovered. */
  private async sendRaw(proc: LineProcess, line: string): Promise<Response> {
    proc.write(line);
    let text: string;
    do text = await proc.nextLine(this.options.timeoutMs + (this.options.graceMs ?? 30_000) + this.startupAllowance(proc)); while (text.trim() === '');
    const checked = responseSchema.safeParse(JSON.parse(text));
    if (!checked.success) throw new Error(`malformed response from the external process: ${clip(text)}`);
    return checked.data;
  }

  /** Kills the process, starts a new one and replays; always throws `reason` (with what was restored). */
  private async restart(reason: string, keepReason = false): Promise<never> {
    await this.proc?.kill();
    this.proc = undefined;
    let note: string;
    try {
      await this.restartAndReplay();
      note = this.history.length > 0 ? `restarted and replayed to step ${this.history.length}` : 'restarted';
    } catch (err) {
      note = `restart failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    throw new EngineFailure(keepReason ? reason : `${reason}; ${note}`);
  }

  /** A fresh process brought to the last kept step by resending steps 1..n. */
  private async restartAndReplay(): Promise<void> {
    await this.proc?.kill();
    this.proc = undefined;
    const proc = await this.ensureProcess();
    if (this.printMode !== 1) await this.sendRaw(proc, `PRINT_MODE ${this.printMode}`);
    const kept: HistoryEntry[] = [];
    try {
      for (const entry of this.history) {
        const r = await this.sendRaw(proc, entry.request);
        if (r.ERR !== '') throw new Error(`replay of step ${kept.length + 1} failed: ${r.ERR}`);
        const replayed: HistoryEntry = { ...entry };
        if (r.STEP !== undefined) replayed.remoteStep = r.STEP;
        else delete replayed.remoteStep;
        kept.push(replayed);
      }
    } finally {
      this.history = kept;
    }
  }
}

function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
