/**
 * Whether the provers Arbor starts run inside the operating system's sandbox (bubblewrap on Linux):
 * `on`, `off` (the user turned it off) or `unavailable` (no bwrap, or it fails here: macOS, Windows, a
 * kernel without user namespaces). Never silent: `arbor-shell --check` and the Provers page print it.
 */
export interface SandboxStatus {
  state: 'on' | 'off' | 'unavailable';
  /** on: the tool; off: how it was turned off; unavailable: why. */
  detail: string;
  /** on, because this process already runs inside Arbor's sandbox (an external arbor-shell): its provers start plain inside it. */
  inherited?: boolean;
}

/** What the sandbox does not cover, and why (shown with the status, so nobody assumes more). */
export const SANDBOX_EXCEPTIONS: readonly string[] = [
  'the Isa-REPL server (isabelle backend) runs outside it: Arbor reaches it over TCP and it needs your ~/.isabelle',
];

/** The one line both the CLI and the Provers page show. */
export function describeSandbox(s: SandboxStatus): string {
  switch (s.state) {
    case 'on':
      return `sandbox: on (${s.detail}) — provers see a read-only system, a private /tmp, no network`;
    case 'off':
      return `sandbox: off (${s.detail}) — provers run with the policy alone`;
    case 'unavailable':
      return `sandbox: unavailable (${s.detail}) — provers run with the policy alone`;
  }
}
