import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROJECT_FILE_NAME } from '../../shared/project/project-file.ts';
import type { CoqProjectStatus } from '../../shared/project/coq-project-status.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';
import { readCoqProject } from './coq-project.ts';
import type { CoqProjectSetup } from './coq-project.ts';

/**
 * Workspace trust, as VS Code's: what a workspace's project files ask of Arbor (today a `_CoqProject`'s
 * load paths and `-arg` options) is used only after the user said yes for this workspace, in Arbor's own
 * confirmation — never because a client of the API asked. The yes is kept per workspace, per user, for
 * the file's exact text: a changed file is untrusted until asked again.
 *
 * How the user says yes depends on the host: the desktop app shows a native dialog (no page can draw or
 * answer it); the web workbench's page shows a confirmation, and the yes must carry a one-time code the
 * host printed on its own terminal — any client holding the web token (an attached agent too) could
 * otherwise "confirm" by calling the API, which is exactly what trust must not be.
 */
export interface WorkspaceTrustOptions {
  root: string;
  /** Per-user state: the grants file lives here. */
  userDir: string;
  /** Desktop: ask in a native dialog. */
  askNative?: (setup: CoqProjectSetup) => Promise<boolean>;
  /** Web: where the one-time code goes (the host's terminal). */
  printCode?: (line: string) => void;
}

const GRANTS_FILE = 'trusted-workspaces.json';
const CODE_TTL_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;

export class WorkspaceTrust {
  private setup: CoqProjectSetup | undefined;
  /** What a grant covers: the workspace's project files exactly as they are (both, so one yes is one concept). */
  private fingerprint = '';
  private trusted = false;
  private code: { value: string; until: number; attempts: number } | undefined;
  /**
   * Wrong codes over all requests: each request used to print a fresh code with five fresh tries, so a client
   * holding the web token could ask again and again (about 200,000 requests guess a six-digit code).
   * Past MAX_ATTEMPTS wrong codes in all, the question is closed until Arbor restarts.
   */
  private wrongTotal = 0;
  private readonly root: string;

  constructor(private readonly options: WorkspaceTrustOptions) {
    this.root = resolve(options.root);
  }

  /** Reads the project file and the stored grant; call once at start (and after the file changes). */
  async load(): Promise<void> {
    this.setup = await readCoqProject(this.root);
    const arborProject = await readFile(join(this.root, PROJECT_FILE_NAME), 'utf8').catch(() => '');
    this.fingerprint = createHash('sha256').update(`${this.setup?.fingerprint ?? ''}\0${arborProject}`).digest('hex');
    this.trusted = this.setup !== undefined && (await this.grants())[this.root] === this.fingerprint;
  }

  /**
   * Whether the user trusted the workspace's project files as they are now. Written to be the one grant:
   * `arbor.project.json` is part of what was trusted (a change to either file asks again), so its prelude's
   * assumptions can be judged by this same yes.
   */
  get granted(): boolean {
    return this.trusted;
  }

  /** The prover arguments while trusted; undefined otherwise (the engine factory reads this for each new prover). */
  projectArgs(): ProjectArgs | undefined {
    return this.trusted && this.setup !== undefined && this.setup.args.args.length > 0 ? this.setup.args : undefined;
  }

  status(): CoqProjectStatus | null {
    if (this.setup === undefined) return null;
    return { ...this.setup.status, trusted: this.trusted, confirm: this.options.askNative ? 'dialog' : 'terminal-code' };
  }

  /**
   * The user asked to trust the workspace (a button in the page). Desktop: the native dialog decides.
   * Web: a one-time code is printed on the host's terminal; `grant(code)` completes it.
   */
  async request(): Promise<CoqProjectStatus | null> {
    const setup = this.setup;
    if (setup === undefined || this.trusted) return this.status();
    if (this.options.askNative) {
      if (await this.options.askNative(setup)) await this.grantNow();
      return this.status();
    }
    if (this.wrongTotal >= MAX_ATTEMPTS) throw new Error(`wrong code ${MAX_ATTEMPTS} times: the workspace cannot be trusted from the page until Arbor restarts`);
    // A code still valid is printed again, not replaced: asking again neither refreshes the tries nor
    // invalidates the code the user is reading.
    const live = this.code !== undefined && Date.now() <= this.code.until ? this.code : undefined;
    const value = live?.value ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.code = live ?? { value, until: Date.now() + CODE_TTL_MS, attempts: 0 };
    this.options.printCode?.(`Arbor: to trust ${setup.status.path} (its load paths: ${setup.args.readOnly.join(', ') || 'none'}), type this code in the page: ${value} (valid 5 minutes)`);
    return this.status();
  }

  /** Web: the code the user typed. Wrong codes count; past MAX_ATTEMPTS or the time limit a new request is needed. */
  async grant(code: string): Promise<CoqProjectStatus | null> {
    const pending = this.code;
    if (pending === undefined || Date.now() > pending.until || pending.attempts >= MAX_ATTEMPTS || this.wrongTotal >= MAX_ATTEMPTS) {
      this.code = undefined;
      throw new Error('no confirmation is pending: ask again (a new code is printed on the terminal where Arbor runs)');
    }
    pending.attempts++;
    const a = Buffer.from(code.trim());
    const b = Buffer.from(pending.value);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      this.wrongTotal++;
      throw new Error(`wrong code (${MAX_ATTEMPTS - this.wrongTotal} tries left)`);
    }
    this.code = undefined;
    await this.grantNow();
    return this.status();
  }

  /** Desktop start-up: ask once per workspace (nothing is asked again while the file stays the same). */
  async askAtStart(): Promise<void> {
    if (this.setup !== undefined && !this.trusted && this.options.askNative) await this.request();
  }

  private async grantNow(): Promise<void> {
    if (this.setup === undefined) return;
    const grants = await this.grants();
    grants[this.root] = this.fingerprint;
    await mkdir(this.options.userDir, { recursive: true });
    const file = join(this.options.userDir, GRANTS_FILE);
    await writeFile(`${file}.tmp`, JSON.stringify(grants, null, 2), 'utf8');
    await rename(`${file}.tmp`, file);
    this.trusted = true;
  }

  private async grants(): Promise<Record<string, string>> {
    try {
      const g = JSON.parse(await readFile(join(this.options.userDir, GRANTS_FILE), 'utf8')) as unknown;
      return typeof g === 'object' && g !== null && !Array.isArray(g) ? (g as Record<string, string>) : {};
    } catch {
      return {};
    }
  }
}
