/**
 * The web workbench's question about the workspace project's assumptions (see main/host/project-trust-gate.ts):
 * `asked` until the user answers in the page; `none` when there is nothing to ask (or the desktop app asked
 * in its native dialog).
 */
export interface ProjectTrustStatus {
  state: 'none' | 'asked' | 'granted' | 'declined';
  path?: string;
  assumptions: string[];
}
