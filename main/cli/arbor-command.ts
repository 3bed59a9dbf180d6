import type { ProjectArgs } from '../shell/prover-session.ts';

/** `arbor SUBCOMMAND …`: one entry for Arbor's tools besides `arbor-shell` and `arbor-mcp`. */
export const ARBOR_USAGE = `Usage: arbor <command> [options]

Commands:
  shell      the channel protocol on stdin/stdout (same as arbor-shell)
  mcp        the MCP server for agents (same as arbor-mcp)
  fidelity   does a formal statement say what a reference says? (S0/S1, S3-lite, BEq+, refutation)
  advisor    serve Arbor's distance estimates to AIMLEAP over its advisor protocol
  check      which provers are installed, and how to install the rest
  batch      run a batch (fidelity cases, AIM problems, statements to hammer, documents to check)
             on a local pool of workers, or on BullMQ/Redis workers with --queue
  worker     pull batch jobs from BullMQ/Redis and run them with this machine's provers

Run 'arbor <command> --help' for a command's options.`;

export async function runArborCommand(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'shell': return (await import('./arbor-shell.ts')).runArborShell(rest);
    case 'check': return (await import('./arbor-shell.ts')).runArborShell(['--check', ...rest]);
    case 'mcp': return (await import('./arbor-mcp.ts')).runArborMcp(rest);
    // `--workspace DIR`: the load paths of DIR's project as the user trusted it in the workbench (one place: WorkspaceTrust).
    case 'fidelity': return (await import('../fidelity/fidelity-command.ts')).runFidelityCommand(rest, undefined, await trustedProject());
    case 'batch': return (await import('../batch/batch-command.ts')).runBatchCommand(rest, undefined, await trustedProject());
    case 'worker': return (await import('../batch/worker-command.ts')).runWorkerCommand(rest, await trustedProject());
    case 'advisor': return (await import('./advisor-command.ts')).runAdvisorCommand(rest);
    case undefined:
    case '-h':
    case '--help':
      process.stdout.write(`${ARBOR_USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`arbor: unknown command '${command}'\n${ARBOR_USAGE}\n`);
      return 2;
  }
}

const trustedProject = async (): Promise<(dir: string) => Promise<ProjectArgs | undefined>> => (await import('../host/workspace-trust.ts')).trustedProjectArgs;
