/** The workspace's `_CoqProject` as the workbench shows it (`project.coq`). */
export interface CoqProjectStatus {
  /** The file's path. */
  path: string;
  loadPaths: { kind: 'Q' | 'R'; dir: string; logical: string; path: string; exists: boolean }[];
  /** The allowed `-arg` options passed to Coq. */
  args: string[];
  /** What Arbor does not use, each with the reason. */
  ignored: string[];
  /** A `dune-project` in the workspace, and whether `dune` is installed. */
  dune?: string;
  /** The user trusted this file (as it is now): its load paths are used by new provers. */
  trusted: boolean;
  /** How this host asks: a native dialog (desktop), or an in-page confirmation with a code printed on the host's terminal (web). */
  confirm: 'dialog' | 'terminal-code';
}
