import { z } from 'zod';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import { splitRequests } from '../../../shared/protocol/split-requests.ts';
import { AGENT_PROPOSALS } from '../../../shared/protocol/commands.ts';
import type { Proposal, SourceContext, SuggestionSource } from './suggestion-source.ts';

export interface ChatSourceConfig {
  /** API base of an OpenAI-compatible server, e.g. `http://127.0.0.1:8080/v1` (`/chat/completions` is appended). */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer KEY` when set. */
  key?: string;
  timeoutMs?: number;
  maxProposals?: number;
}

export const CHAT_SYSTEM_PROMPT = `You help with a Coq proof in Arbor's proof shell. Commands (one per line):
HAVE name "prop" (prove prop first, then use it as name), OBTAIN x where H: "cond", APPLY tactic
(one Coq tactic; write tactics containing ';' in parentheses), CRUSH, HAMMER, RULE lemma, UNFOLD def,
END / NEXT (close the current goal, calling the hammer if needed).
Propose up to 5 alternative ways to make progress on Goal 1. Put each alternative in its own
\`\`\`arbor code block, one command per line. No other commands.`;

const completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

/**
 * An optional suggestion source: an OpenAI-compatible chat completion prompted with the same texts the
 * MCP tools give agents (state, context, history, structure); the commands it proposes are parsed and,
 * like every source's, checked by the prover before anyone sees them. Off unless configured.
 */
export function chatCompletionsSource(config: ChatSourceConfig): SuggestionSource {
  const endpoint = `${config.url.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: 'chat',
    async propose(context, signal) {
      const timeout = AbortSignal.timeout(config.timeoutMs ?? 60_000);
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(config.key ? { authorization: `Bearer ${config.key}` } : {}) },
        body: JSON.stringify({ model: config.model, temperature: 0.2, messages: chatMessages(context) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!response.ok) throw new Error(`chat source: HTTP ${response.status} from ${endpoint}`);
      const parsed = completion.safeParse(await response.json());
      if (!parsed.success) throw new Error('chat source: not a chat completion response');
      return parseProposals(parsed.data.choices[0]?.message.content ?? '').slice(0, config.maxProposals ?? 5);
    },
  };
}

export function chatMessages(context: SourceContext): { role: 'system' | 'user'; content: string }[] {
  return [
    { role: 'system', content: CHAT_SYSTEM_PROMPT },
    { role: 'user', content: [context.stateText, context.structureText, context.contextText, context.historyText].join('\n\n') },
  ];
}

/**
 * Proposals in a model's answer: each fenced code block is one alternative (its command lines, in
 * order); without blocks, each command line is one. Lines that are not allowed commands are dropped.
 */
export function parseProposals(content: string): Proposal[] {
  const blocks = [...content.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const groups = blocks.length > 0 ? blocks.map((b) => commandsIn(b)) : commandsIn(content).map((c) => [c]);
  return groups.filter((g) => g.length > 0).map((commands) => ({ commands, reason: 'proposed by the chat model' }));
}

function commandsIn(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const raw of splitRequests(line.trim())) {
      if (raw.error) continue;
      const parsed = parseRequest(raw.text);
      if ('error' in parsed || parsed.channel !== 0 || /^\s*[0-9]/.test(raw.text)) continue;
      // What a chat model may propose: lines of the current proof (never GOAL, PRELUDE or channel management).
      if (AGENT_PROPOSALS.has(parsed.command.name)) out.push(raw.text);
    }
  }
  return out;
}
