import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { PROJECT_FILE_NAME } from '../../shared/project/project-file.ts';
import type { CoqProjectStatus } from '../../shared/project/coq-project-status.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';
import { COQ_PROJECT_FILE, readCoqProject } from './coq-project.ts';
import type { CoqProjectSetup } from './coq-project.ts';
import { projectAssumptionNames, readWorkspaceProject } from './workspace-project.ts';
import { defaultUserDir } from './workspace.ts';

/** What one yes covers: the load paths, `-arg` options and declared axioms, exactly as shown to the user. */
export type TrustQuestion = Omit<CoqProjectStatus, 'trusted' | 'confirm'>;

/**
 * Workspace trust, as VS Code's, and the one grant of a workspace: what its project files ask of Arbor — a
 * `_CoqProject`'s load paths and `-arg` options, and the assumptions its `arbor.project.json` prelude
 * declares — is used only after the user said yes for this workspace, in Arbor's own confirmation, never
 * because a client of the API asked. One question shows all of it; the yes is kept per workspace, per user,
 * for both files' exact text (a SHA-256 of them): a change to either is untrusted until asked again.
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
  askNative?: (question: TrustQuestion) => Promise<boolean>;
  /** Web: where the one-time code goes (the host's terminal). */
  printCode?: (line: string) => void;
}

const GRANTS_FILE = 'trusted-workspaces.json';
const CODE_TTL_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;

export class WorkspaceTrust {
  private setup: CoqProjectSetup | undefined;
  /** `arbor.project.json`'s prelude and the assumptions it declares (what the question lists). */
  private projectFile: { path: string; prelude: string | undefined; axioms: string[] } | undefined;
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

  /** Reads both project files and the stored grant; call at start and whenever the files may have changed. */
  async load(): Promise<void> {
    this.setup = await readCoqProject(this.root);
    const arborProject = await readFile(join(this.root, PROJECT_FILE_NAME), 'utf8').catch(() => '');
    const info = await readWorkspaceProject(this.root);
    const prelude = info?.prelude;
    this.projectFile = info === null ? undefined : { path: info.path, prelude, axioms: prelude !== undefined ? projectAssumptionNames(prelude) : [] };
    this.fingerprint = createHash('sha256').update(`${this.setup?.fingerprint ?? ''}\0${arborProject}`).digest('hex');
    this.trusted = this.asks() && (await this.grants())[this.root] === this.fingerprint;
  }

  /** Whether there is anything to trust: a `_CoqProject`, or declared assumptions in `arbor.project.json`. */
  private asks(): boolean {
    return this.setup !== undefined || (this.projectFile?.axioms.length ?? 0) > 0;
  }

  /** Whether the user trusted the workspace's project files as they are now. */
  get granted(): boolean {
    return this.trusted;
  }

  /**
   * Whether a session whose project prelude is `prelude` may trust the assumptions it declares: the
   * workspace is trusted and that prelude is the one the question showed (a session started from an older
   * text never borrows a later yes).
   */
  axiomsTrusted(prelude: string): boolean {
    return this.trusted && this.projectFile?.prelude === prelude;
  }

  /**
   * The prover arguments while trusted; undefined otherwise. The one place load paths come from: every
   * new coqidetop and every `coqc` run (fidelity, the SCRIPT check, batch) reads them here.
   */
  projectArgs(): ProjectArgs | undefined {
    return this.trusted && this.setup !== undefined && this.setup.args.args.length > 0 ? this.setup.args : undefined;
  }

  /** The question as the user sees it: load paths, options, ignored entries, declared axioms. */
  question(): TrustQuestion | undefined {
    if (!this.asks()) return undefined;
    const coq: Omit<TrustQuestion, 'axioms' | 'projectFile'> = this.setup?.status ?? { loadPaths: [], args: [], ignored: [] };
    const axioms = this.projectFile?.axioms ?? [];
    return { ...coq, axioms, ...(axioms.length > 0 && this.projectFile ? { projectFile: this.projectFile.path } : {}) };
  }

  status(): CoqProjectStatus | null {
    const q = this.question();
    return q === undefined ? null : { ...q, trusted: this.trusted, confirm: this.options.askNative ? 'dialog' : 'terminal-code' };
  }

  /**
   * Why `files.write` may not write `realPath` (undefined: it may): the project files, whatever name or
   * symlink leads to them, and inside a load-path directory anything but Arbor's own documents (a planted
   * `.vo` or `.v` there would be what a trusted `Require` loads). Read afresh: the files may have changed.
   */
  async writeRefusal(realPath: string): Promise<string | undefined> {
    await this.load();
    const own = await Promise.all([COQ_PROJECT_FILE, PROJECT_FILE_NAME].map((f) => realpath(join(this.root, f)).catch(() => undefined)));
    if (own.includes(realPath)) return `${basename(realPath)} carries the workspace's trust (it is a project file)`;
    const dir = this.setup?.args.readOnly.find((d) => realPath.startsWith(d.endsWith(sep) ? d : d + sep));
    if (dir !== undefined && !/\.arbor(\.edits\.json)?$/.test(realPath)) return `${dir} is a load path of the workspace's _CoqProject: only Arbor documents may be written there`;
    return undefined;
  }

  /**
   * The user asked to trust the workspace (a button in the page). Desktop: the native dialog decides.
   * Web: a one-time code is printed on the host's terminal; `grant(code)` completes it.
   */
  async request(): Promise<CoqProjectStatus | null> {
    const question = this.question();
    if (question === undefined || this.trusted) return this.status();
    if (this.options.askNative) {
      if (await this.options.askNative(question)) await this.grantNow();
      return this.status();
    }
    if (this.wrongTotal >= MAX_ATTEMPTS) throw new Error(`wrong code ${MAX_ATTEMPTS} times: the workspace cannot be trusted from the page until Arbor restarts`);
    // A code still valid is printed again, not replaced: asking again neither refreshes the tries nor
    // invalidates the code the user is reading.
    const live = this.code !== undefined && Date.now() <= this.code.until ? this.code : undefined;
    const value = live?.value ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.code = live ?? { value, until: Date.now() + CODE_TTL_MS, attempts: 0 };
    this.options.printCode?.(`Arbor: to trust the workspace ${this.root} (${describeQuestion(question)}), type this code in the page: ${value} (valid 5 minutes)`);
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
    if (this.asks() && !this.trusted && this.options.askNative) await this.request();
  }

  private async grantNow(): Promise<void> {
    if (!this.asks()) return;
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

/** The whole question in one line (the terminal's code line, the desktop dialog's detail): nothing granted is left out. */
export function describeQuestion(q: TrustQuestion): string {
  const paths = q.loadPaths.filter((l) => l.exists).map((l) => `-${l.kind} ${l.path} ${l.logical === '' ? '""' : l.logical}`);
  return [
    `load paths, read-only: ${paths.join('; ') || 'none'}`,
    `Coq options: ${q.args.join(' ') || 'none'}`,
    `trusted assumptions: ${q.axioms.join(', ') || 'none'}${q.projectFile !== undefined ? ` (declared in ${q.projectFile})` : ''}`,
    ...(q.ignored.length > 0 ? [`ignored: ${q.ignored.join('; ')}`] : []),
  ].join('; ');
}

/**
 * A command line's use of a workspace's project (`arbor batch|worker|fidelity --workspace DIR`): the grant the
 * user gave in the workbench, for the files as they are now; a command line never asks or grants. Rejects
 * with the reason when DIR has nothing to trust or is not trusted.
 */
export async function trustedProjectArgs(root: string, userDir = defaultUserDir()): Promise<ProjectArgs | undefined> {
  const t = new WorkspaceTrust({ root, userDir });
  await t.load();
  if (t.status() === null) throw new Error(`${resolve(root)} has no _CoqProject (nothing to trust)`);
  if (!t.granted) throw new Error(`the project files of ${resolve(root)} are not trusted (or changed since they were): trust the workspace in the workbench (arbor start or arbor web) first; a command line never grants trust`);
  return t.projectArgs();
}
