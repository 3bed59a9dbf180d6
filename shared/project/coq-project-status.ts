/**
 * What the workspace asks the user to trust, and whether it is trusted (`project.coq`): its `_CoqProject`'s
 * load paths and `-arg` options and the assumptions its `arbor.project.json` prelude declares — one question,
 * one yes (main/host/workspace-trust.ts).
 */
export interface CoqProjectStatus {
  /** The `_CoqProject`'s path; absent when only `arbor.project.json` asks for trust. */
  path?: string;
  loadPaths: { kind: 'Q' | 'R'; dir: string; logical: string; path: string; exists: boolean }[];
  /** The allowed `-arg` options passed to Coq. */
  args: string[];
  /** What Arbor does not use, each with the reason. */
  ignored: string[];
  /** A `dune-project` in the workspace, and whether `dune` is installed. */
  dune?: string;
  /** The `arbor.project.json` whose prelude declares `axioms`. */
  projectFile?: string;
  /** The assumptions that prelude declares: proofs using them are accepted once the workspace is trusted. */
  axioms: string[];
  /** The user trusted the workspace's project files as they are now: new provers use the load paths, proofs may use the axioms. */
  trusted: boolean;
  /** How this host asks: a native dialog (desktop), or an in-page confirmation with a code printed on the host's terminal (web). */
  confirm: 'dialog' | 'terminal-code';
}
