import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AgentSession } from './agent-session.ts';
import { registerArborTools } from './mcp-tools.ts';
import type { SessionRef, ToolOptions } from './mcp-tools.ts';
import type { SuggestionSource } from './sources/suggestion-source.ts';

export const ARBOR_MCP_VERSION = '0.1.0';

const INSTRUCTIONS = `Arbor proof session (Coq). Read the state with get_current_proof_state, get_proof_context,
get_goal_structure and get_edit_history; check terms with check_term_validity; compare two statements' meaning with
check_statement_fidelity; propose hypothesis edits
with suggest_proof_state_edit (the user accepts or rejects them). try_commands explores alternatives on
scratch copies; run_command changes the shared proof. Errors start with a reason code: no_goal,
bad_argument, prover_error, parse_error, timeout, injection.`;

export interface ArborMcpServerOptions {
  /** Overrides the client's own name (from MCP initialize) as the tag of its suggestions. */
  agentName?: string;
  sources?: readonly SuggestionSource[];
  project?: ToolOptions['project'];
}

/** One MCP server (one client connection) on a shared agent session (or whichever one `session()` names per call). */
export function createArborMcpServer(session: AgentSession | SessionRef, options: ArborMcpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'arbor', version: ARBOR_MCP_VERSION }, { instructions: INSTRUCTIONS });
  const agentName = (): string => cleanName(options.agentName ?? server.server.getClientVersion()?.name ?? 'agent');
  registerArborTools(server, typeof session === 'function' ? session : () => session, agentName, { ...(options.sources ? { sources: options.sources } : {}), ...(options.project ? { project: options.project } : {}) });
  return server;
}

/** A client name as a tag: printable, short. */
function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 64);
  return clean === '' ? 'agent' : clean;
}
