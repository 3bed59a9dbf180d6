import type { ProjectArgs } from '../shell/prover-session.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { formatHammerReport } from '../../shared/protocol/hammer-report.ts';
import type { AgentSession } from './agent-session.ts';
import { fidelityToolShape, runFidelityTool } from './fidelity-tool.ts';
import { lenientSchema } from './lenient-schema.ts';
import type { SuggestionSource } from './sources/suggestion-source.ts';
import type { Suggestion } from './suggestion-queue.ts';
import { reasonForShellError, ToolError } from './tool-error.ts';
import { formatStatementMeaning } from '../../shared/protocol/statement-meaning.ts';

const term = z.string().min(1).max(10_000);
const command = z.string().min(1).max(10_000);

/** Who is calling: the MCP client's name from `initialize` (or a name set on the command line). */
export type AgentName = () => string;

export interface ToolOptions {
  /** Suggestion sources `suggest_tactics` can run, by name. */
  sources?: readonly SuggestionSource[];
  /** The workspace's trusted project (WorkspaceTrust.projectArgs): `check_statement_fidelity`'s coqc runs get its load paths. */
  project?: () => ProjectArgs | undefined;
}

/** The tools of seed 003 plus Arbor's (run_command, try_commands, get_script, get_transcript, …). */
/** The session a tool call works on, looked up per call (the workbench's follows the active editor). */
export type SessionRef = () => AgentSession;

export function registerArborTools(server: McpServer, session: SessionRef, agentName: AgentName, options: ToolOptions = {}): void {
  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    shape: S,
    run: (args: z.output<z.ZodObject<S>>) => Promise<string>,
  ): void => {
    const real = z.strictObject(shape);
    server.registerTool(name, { description, inputSchema: lenientSchema(real) }, async (args: unknown): Promise<CallToolResult> => {
      const parsed = real.safeParse(args ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return failure(new ToolError('bad_argument', issue ? `${issue.path.join('.') || '(arguments)'}: ${issue.message}` : 'invalid arguments'));
      }
      try {
        return { content: [{ type: 'text', text: await run(parsed.data) }] };
      } catch (err) {
        return failure(err instanceof ToolError ? err : new ToolError('prover_error', `internal error: ${err instanceof Error ? err.message : String(err)}`));
      }
    });
  };

  tool('get_current_proof_state',
    'The current proof state: every open goal (Goal 1 is the current one) with its type and hypotheses. Call this first.',
    {}, () => session().proofStateText());

  tool('get_proof_context',
    'The last lines of the proof script (the Arbor commands that built the state) and the theorems available: hypotheses, facts stated with HAVE/OBTAIN, the document\'s own declarations and finished theorems, prelude lemmas.',
    {
      linesBefore: z.number().int().min(0).max(10_000).optional().describe('lines of proof script to include (default 20)'),
      includeTheorems: z.boolean().optional().describe('include the available theorems (default true)'),
    },
    async (a) => session().proofContextText(a.linesBefore ?? 20, a.includeTheorems ?? true));

  tool('search_lemmas',
    'Lemmas whose statement matches a pattern (Coq `Search`), in the standard library and this document: name, statement, module. Patterns use `_` for holes, e.g. "_ ++ [_]" or "length (rev _)".',
    { pattern: term.describe('a term pattern with `_` holes, e.g. "length (_ ++ _)"') },
    async (a) => JSON.stringify(await session().lookUp('search', a.pattern), null, 1));

  tool('look_up',
    'What a name or term is, in this document\'s environment: `about` (type, kind, module), `check` (a term\'s type), `print` (a definition\'s body), `locate` (every object a name may refer to). Answers JSON.',
    {
      kind: z.enum(['about', 'check', 'print', 'locate']).describe('what to ask'),
      text: term.describe('a name (about, print, locate) or a term (check)'),
    },
    async (a) => JSON.stringify(await session().lookUp(a.kind, a.text), null, 1));

  tool('get_edit_history',
    'Every accepted or rejected suggestion and manual edit (lhs -> rhs) with time and source, then the pending suggestions of all agents. Check it to avoid repeating a suggestion.',
    {}, async () => session().editHistoryText());

  tool('check_term_validity',
    'Checks with the prover that a Coq term or assertion is well typed in the current goal\'s context (on a scratch copy of the proof), or in the document\'s environment when no goal is open. Answers "valid" or the prover\'s message.',
    { term: term.describe('a Coq term or assertion, e.g. "assert (n + 0 = n)." or "n + 0"') },
    (a) => session().checkTerm(a.term));

  tool('suggest_proof_state_edit',
    'Proposes an edit of a hypothesis of the current goal (lhs -> rhs). Arbor checks it first (the new form must follow from the context with the hammer), labels it valid/invalid, and queues it for the user to accept or reject.',
    {
      hypothesisName: z.string().min(1).max(200).describe('the hypothesis being edited, e.g. "H"'),
      originalValue: term.describe('the hypothesis\' current type, e.g. "n + 0 = n"'),
      suggestedValue: term.describe('the proposed new type, e.g. "n = n"'),
      reason: z.string().max(2000).optional().describe('why this edit helps'),
    },
    async (a) => {
      const { suggestion, duplicate, note } = await session().suggestHypothesisEdit(agentName(), {
        hypothesisName: a.hypothesisName, originalValue: a.originalValue, suggestedValue: a.suggestedValue,
        ...(a.reason !== undefined ? { reason: a.reason } : {}),
      });
      const lines = [duplicate ? `Already pending as suggestion #${suggestion.id} (from ${suggestion.from}); not queued again.` : `Suggestion #${suggestion.id} queued (pending) from ${suggestion.from}.`];
      lines.push(...describe(session(), suggestion));
      if (note) lines.push(`note: ${note}`);
      return lines.join('\n');
    });

  tool('get_goal_structure',
    'The current goals broken down by structure (binders, connectives, relations), each variable and hypothesis with its shape and dependencies, and the goal\'s place in the bundle tree.',
    {}, () => session().goalStructureText());

  tool('run_command',
    'Runs one Arbor shell command (GOAL, HAVE, OBTAIN, APPLY, CRUSH, HAMMER, RULE, UNFOLD, END, NEXT, LET, STATE, REVERT, SCRIPT, …) on the session\'s channel and returns the response JSON. This changes the shared proof. A failed HAMMER/END also says, on a line `hammer: …`, what it tried stage by stage, and a false goal\'s counterexample.',
    { command: command.describe('one command without a channel id, e.g. "APPLY intros n" or "HAVE H \\"n + 0 = n\\""') },
    async (a) => {
      const response = await session().runCommand(a.command);
      // A failed HAMMER/END explains itself in the same words the workbench's Messages use.
      const hammer = response.HAMMER_REPORT ? `hammer: ${formatHammerReport(response.HAMMER_REPORT)}\n` : '';
      if (response.ERR !== '') throw new ToolError(reasonForShellError(response.ERR), `${response.ERR}\n${hammer}${JSON.stringify(response)}`);
      return JSON.stringify(response);
    });

  tool('try_commands',
    'Tries alternative command sequences, each on its own scratch copy of the proof (nothing is committed), and reports for each the resulting state and a label: closes_goal, closes_goal_different_meaning (the theorem finished, but its statement as Coq elaborated it differs from its text read in a clean environment: `statement` says how), progress (with the new subgoals) or invalid (with the error, and for a failed HAMMER/END `hammer`: what it tried and a false goal\'s counterexample).',
    {
      alternatives: z.array(z.array(command).min(1).max(20)).min(1).max(8).describe('each alternative is a list of commands run in order, e.g. [["APPLY lia"], ["APPLY intros", "CRUSH"]]'),
      sequential: z.boolean().optional().describe('run one at a time (default: two at a time)'),
    },
    async (a) => {
      // A JSON array, one alternative per line: readable for people, parseable for agents.
      const results = await session().tryCommands(a.alternatives, { sequential: a.sequential ?? false });
      return `[\n${results.map((r) => JSON.stringify(r)).join(',\n')}\n]`;
    });

  tool('get_script',
    'The reproduction script: the prover\'s own script (format "prover", default; open goals are marked) or the Arbor commands of the session (format "arbor").',
    { format: z.enum(['prover', 'arbor']).optional() },
    (a) => session().script(a.format ?? 'prover'));

  tool('get_transcript',
    'The session channel\'s requests and responses as JSON lines (whoever sent them), optionally with the scratch channels\' traffic.',
    {
      last: z.number().int().min(1).max(5000).optional().describe('entries to return (default 100)'),
      includeScratch: z.boolean().optional(),
    },
    async (a) => session().transcript(a.last ?? 100, a.includeScratch ?? false).map((e) => JSON.stringify(e)).join('\n') || '(empty)');

  tool('get_suggestions',
    'The suggestion queue every attached agent and source writes to: id, author, label, status.',
    { status: z.enum(['pending', 'accepted', 'rejected']).optional() },
    async (a) => {
      const list = session().queue.list(a.status !== undefined ? { status: a.status } : undefined);
      if (list.length === 0) return '=== SUGGESTIONS (0) ===';
      return [`=== SUGGESTIONS (${list.length}) ===`, '', ...list.flatMap((s) => [`#${s.id} [${s.status}] from ${s.from}`, ...describe(session(), s).map((l) => `  ${l}`)])].join('\n');
    });

  tool('check_statement_fidelity',
    'Checks whether a candidate statement says the same as a canonical one (statement fidelity, not truth): tiers S0/S1 (normalisation), type check, refutation (a Coq-checked counterexample), S3-lite and BEq+ (proofs of both directions). Answers the verdict (equivalent, not_equivalent, ill_typed, unknown), the deciding tier, the normalised forms and the evidence, then the report as JSON.',
    fidelityToolShape, (a) => runFidelityTool(a, undefined, options.project?.()));

  const sources = options.sources ?? [];
  if (sources.length > 0) {
    const names = sources.map((s) => s.name) as [string, ...string[]];
    tool('suggest_tactics',
      `Runs Arbor's suggestion sources (${names.join(', ')}) on the current goal; every proposal is tried on a scratch copy and queued labelled closes_goal / closes_goal_different_meaning / progress / invalid.`,
      { sources: z.array(z.enum(names)).min(1).max(names.length).optional().describe('which sources (default: all)') },
      async (a) => {
        const chosen = sources.filter((s) => a.sources === undefined || a.sources.includes(s.name));
        const queued = await session().runSources(chosen);
        return [`=== SUGGESTIONS QUEUED (${queued.length}) ===`, '', ...queued.flatMap((s) => [`#${s.id} from ${s.from}`, ...describe(session(), s).map((l) => `  ${l}`)])].join('\n');
      });
  }
}

function describe(session: AgentSession, s: Suggestion): string[] {
  const lines = [`edit: ${session.summary(s)}`, `label: ${s.label}${s.error ? ` — ${s.error}` : ''}`, ...(s.statement ? [formatStatementMeaning(s.statement)] : [])];
  if (s.subgoals) lines.push(`subgoals: ${s.subgoals.length === 0 ? '(none)' : s.subgoals.map((g) => JSON.stringify(g)).join(', ')}`);
  if (s.reason) lines.push(`reason: ${s.reason}`);
  lines.push(`applies as: ${s.apply.join('; ')}`);
  return lines;
}

function failure(err: ToolError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: err.text }] };
}
