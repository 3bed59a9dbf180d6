import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../process/free-port.ts';
import { splitCommandLine } from '../../process/command-line.ts';
import { startProcess, type ManagedProcess } from '../../process/process-manager.ts';
import { formatAddress, IsaReplClient, parseAddress } from './isa-repl-client.ts';
import type { ServerAddress } from './isa-repl-client.ts';

/**
 * Where the isabelle backend's Isa-REPL server is. Both come from the user (settings, environment, command
 * line), never from protocol input: either the address of a server the user runs, or the command line
 * that starts one — Isa-REPL's `repl_server.sh` from the user's checkout, to which Arbor appends
 * `ADDR BASE_SESSION OUTPUT_DIR` as that script expects (`127.0.0.1:PORT`, a free port Arbor picks).
 */
export interface IsabelleServerConfig {
  address?: string;
  serverCommand?: string;
  /** BASE_SESSION of a server Arbor starts, and the theory qualifier of every session (default `HOL`). */
  session?: string;
  /** How long a server Arbor starts may take before it answers (it may build its sessions first; default 30 min). */
  startupMs?: number;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_ISABELLE_SESSION = 'HOL';

/** Why the configuration cannot work, or undefined. */
export function checkServerConfig(config: IsabelleServerConfig): string | undefined {
  if (config.address !== undefined) {
    return parseAddress(config.address) ? undefined : `the Isa-REPL address '${config.address}' is not HOST:PORT`;
  }
  if (config.serverCommand === undefined) return 'no Isa-REPL server configured: give the address of a running one (ARBOR_ISABELLE_ADDRESS, --isabelle-address, the Provers page) or the command that starts one (ARBOR_ISABELLE_SERVER, --isabelle-server, e.g. /path/to/Isa-REPL/repl_server.sh)';
  try {
    if (splitCommandLine(config.serverCommand).length === 0) return 'the Isa-REPL server command is empty';
  } catch (err) {
    return `the Isa-REPL server command cannot be read: ${(err as Error).message}`;
  }
  if (config.session !== undefined && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(config.session)) return `not an Isabelle session name: ${config.session}`;
  return undefined;
}

/**
 * The one Isa-REPL server of a shell: the given address, or a server started (once, on first use, through
 * the process manager) and awaited until it answers Isa-REPL's `heartbeat`. A started server that died is
 * started again on the next use.
 */
export class IsaReplServer {
  private starting: Promise<ServerAddress> | undefined;
  private process: ManagedProcess | undefined;
  private output = '';
  private tempRoot: string | undefined;

  constructor(private readonly config: IsabelleServerConfig) {}

  get qualifier(): string {
    return this.config.session ?? DEFAULT_ISABELLE_SESSION;
  }

  /** The server's pid when Arbor started it. */
  get pid(): number | undefined {
    return this.process?.alive ? this.process.pid : undefined;
  }

  address(): Promise<ServerAddress> {
    const given = this.config.address !== undefined ? parseAddress(this.config.address) : undefined;
    if (given) return Promise.resolve(given);
    if (this.starting && this.process && !this.process.alive) this.starting = undefined;
    if (!this.starting) {
      this.starting = this.start();
      this.starting.catch(() => { this.starting = undefined; });
    }
    return this.starting;
  }

  /**
   * The address of a server that answers now: a session that lost its connection asks this before it
   * reconnects. A started server that no longer answers `heartbeat` is killed and started again (its
   * process may not have been reaped yet when the broken connection is noticed).
   */
  async liveAddress(): Promise<ServerAddress> {
    const address = await this.address();
    if (this.config.address !== undefined) return address;
    const checked = this.starting;
    try {
      await IsaReplClient.heartbeat(address, 5_000);
      return address;
    } catch {
      const p = this.process;
      if (this.starting === checked && p?.alive) {
        p.kill();
        await p.exited;
      }
      // Several sessions may notice at once: only the first starts a new server.
      if (this.starting === checked) this.starting = undefined;
      return this.address();
    }
  }

  async dispose(): Promise<void> {
    const p = this.process;
    this.process = undefined;
    if (p?.alive) {
      p.kill();
      await p.exited;
    }
    if (this.tempRoot) rmSync(this.tempRoot, { recursive: true, force: true });
    this.tempRoot = undefined;
  }

  private async start(): Promise<ServerAddress> {
    const problem = checkServerConfig(this.config);
    if (problem !== undefined) throw new Error(problem);
    const [program, ...args] = splitCommandLine(this.config.serverCommand as string);
    const address: ServerAddress = { host: '127.0.0.1', port: await freePort() };
    if (this.tempRoot) rmSync(this.tempRoot, { recursive: true, force: true });
    this.tempRoot = mkdtempSync(join(tmpdir(), 'arbor-isa-repl-'));
    // OUTPUT_DIR: where the server writes the theories it evaluates; it creates the directory itself.
    const outputDir = join(this.tempRoot, 'theories');
    this.output = '';
    // Not sandboxed (yet): Arbor reaches the server over TCP on 127.0.0.1, which a sandbox without network
    // would cut, and Isabelle needs the user's ~/.isabelle heaps. `arbor-shell --check` says so.
    const child = startProcess({ program: program as string, args: [...args, formatAddress(address), this.qualifier, outputDir], sandbox: false, ...(this.config.env !== undefined ? { env: this.config.env } : {}) });
    this.process = child;
    // The server prints while it builds: read it (a full pipe would stop it), keep the tail for errors.
    const keep = (chunk: Buffer): void => { this.output = (this.output + chunk.toString('utf8')).slice(-4000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let spawnError: string | undefined;
    child.child.on('error', (err) => { spawnError = err.message; });
    const deadline = Date.now() + (this.config.startupMs ?? 30 * 60_000);
    for (;;) {
      try {
        await IsaReplClient.heartbeat(address, 5_000);
        return address;
      } catch {
        // not listening yet
      }
      if (!child.alive || spawnError !== undefined) {
        const tail = this.output.trim().split('\n').slice(-3).join(' | ');
        throw new Error(`the Isa-REPL server '${this.config.serverCommand}' ${spawnError !== undefined ? `did not start: ${spawnError}` : 'exited before it listened'}${tail ? `: ${tail}` : ''}`);
      }
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`the Isa-REPL server did not answer on ${formatAddress(address)} within ${Math.round((this.config.startupMs ?? 30 * 60_000) / 1000)} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

