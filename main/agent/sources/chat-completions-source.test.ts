import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionsSource, parseProposals } from './chat-completions-source.ts';
import type { SourceContext } from './suggestion-source.ts';

/**
 * A test double of an OpenAI-compatible chat server on 127.0.0.1 (never used by the product): answers
 * every `/v1/chat/completions` with a fixed reply and records what it was sent.
 */
class ChatServerDouble {
  readonly received: { auth: string | undefined; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
  private server: Server | undefined;
  reply = '';
  status = 200;

  async start(): Promise<string> {
    this.server = createServer(async (req: IncomingMessage, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      this.received.push({ auth: req.headers.authorization, body: JSON.parse(body) });
      res.writeHead(this.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: this.reply }, finish_reason: 'stop' }] }));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/v1`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const context: SourceContext = {
  tree: { id: 0, kind: 'leaf', status: 'open', step: 1, ctxt: { vars: [], hyps: [] }, goal: 'n + 0 = n' },
  current: { id: 0, goal: 'n + 0 = n', vars: [{ name: 'n', type: 'nat' }], hyps: [], proved: false, depth: 0 },
  stateText: '=== CURRENT PROOF STATE ===\n\n--- Goal 1 ---\nGoal Type: n + 0 = n',
  contextText: '=== PROOF CONTEXT ===',
  historyText: '=== EDIT HISTORY (0 edits) ===',
  structureText: '=== GOAL STRUCTURE ===',
};

describe('chat completions source (against a local test double server)', () => {
  const double = new ChatServerDouble();
  let url: string;
  beforeAll(async () => {
    url = await double.start();
  });
  afterAll(() => double.stop());

  it('prompts with the tools\' texts and parses one proposal per code block', async () => {
    double.reply = 'Try these:\n```arbor\nAPPLY intros n\nAPPLY (induction n; simpl; auto)\n```\nor\n```\nHAMMER\n```\n```\nGOAL "False"\nPRELUDE "Load x."\n```';
    const source = chatCompletionsSource({ url, model: 'test-model', key: 'sk-test' });
    const proposals = await source.propose(context);
    expect(proposals.map((p) => p.commands)).toEqual([['APPLY intros n', 'APPLY (induction n; simpl; auto)'], ['HAMMER']]);
    const sent = double.received[0];
    expect(sent?.auth).toBe('Bearer sk-test');
    expect(sent?.body.model).toBe('test-model');
    expect(sent?.body.messages[1]?.content).toContain('Goal Type: n + 0 = n');
    expect(sent?.body.messages[0]?.content).toContain('```arbor');
  });

  it('reports HTTP errors and replies that are not chat completions', async () => {
    double.status = 500;
    await expect(chatCompletionsSource({ url, model: 'm' }).propose(context)).rejects.toThrow(/HTTP 500/);
    double.status = 200;
  });

  it('parses bare command lines when there is no code block', () => {
    expect(parseProposals('APPLY lia\nsome prose\n3 APPLY auto\nEND').map((p) => p.commands)).toEqual([['APPLY lia'], ['END']]);
  });
});
