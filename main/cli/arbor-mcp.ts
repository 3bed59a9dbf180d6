import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { BackendId } from '../shell/prover-session.ts';
import { Shell } from '../shell/shell.ts';
import { recordTranscript } from '../shell/transcript-writer.ts';
import { composeBackends, isTimeoutSeconds, MAX_TIMEOUT_SECONDS } from '../supervisor/compose-backends.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { AgentSession } from '../agent/agent-session.ts';
import { EditHistory } from '../agent/edit-history.ts';
import { inProcessPort } from '../agent/in-process-port.ts';
import { createArborMcpHttpServer } from '../agent/mcp-http-server.ts';
import { createArborMcpServer } from '../agent/mcp-server.ts';
import type { ShellPort } from '../agent/shell-port.ts';
import { chatCompletionsSource } from '../agent/sources/chat-completions-source.ts';
import { hammerPortfolio } from '../agent/sources/hammer-portfolio.ts';
import { quickTactics } from '../agent/sources/quick-tactics.ts';
import type { SuggestionSource } from '../agent/sources/suggestion-source.ts';
import { attachPort } from '../agent/ws-attach-port.ts';

export const ARBOR_MCP_USAGE = `Usage: arbor-mcp [options]
An MCP server (stdio) with Arbor's proof tools: seed 003's six tools plus run_command, try_commands,
get_script, get_transcript, get_suggestions and suggest_tactics. It starts its own shell (default) or
attaches to a running workbench. Logs go to stderr; stdout is the MCP stream.
Options:
  --attach URL        attach to a workbench's WebSocket API (ws://127.0.0.1:PORT/…) instead of
                      starting a shell; the token comes from --token or ARBOR_TOKEN
  --token TOKEN       the workbench's token (--attach) or this server's (--http); default ARBOR_TOKEN
  --http PORT         serve MCP over streamable HTTP on 127.0.0.1:PORT (0: any) instead of stdio;
                      prints the URL and token on stderr
  --channel N         the channel the session works on (default 0)
  --backend NAME      prover backend of the own shell: coq (default), eq, lean
  --prelude FILE      prelude for every channel of the own shell
  --timeout SECONDS   default limit of HAMMER, END and CRUSH (default 10)
  --pool N            prover sessions kept warm for scratch channels (default 2)
  --open FILE         run an .arbor script on the channel first
  --history FILE      the edit history: loaded if it exists, saved after every change
  --transcript FILE   append the session channel's requests and responses to FILE as JSON lines
                      (arbor-shell's --transcript format: open it in the workbench to replay the session)
  --agent NAME        tag suggestions with NAME instead of the client's own name
  --chat-url URL      an OpenAI-compatible API base (e.g. http://127.0.0.1:8080/v1) for the chat
                      suggestion source; off unless given. --chat-model NAME; key in ARBOR_CHAT_KEY
  --chat-model NAME
  -h, --help          this text`;

export async function runArborMcp(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        attach: { type: 'string' }, token: { type: 'string' }, http: { type: 'string' },
        channel: { type: 'string', default: '0' }, backend: { type: 'string', default: 'coq' },
        prelude: { type: 'string' }, timeout: { type: 'string', default: '10' }, pool: { type: 'string', default: '2' },
        open: { type: 'string' }, history: { type: 'string' }, agent: { type: 'string' }, transcript: { type: 'string' },
        'chat-url': { type: 'string' }, 'chat-model': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    return usageError(`${(err as Error).message}\n${ARBOR_MCP_USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${ARBOR_MCP_USAGE}\n`);
    return 0;
  }
  const channel = Number(values.channel);
  if (!Number.isInteger(channel) || channel < 0) return usageError('--channel must be a natural number');
  const timeoutSeconds = Number(values.timeout);
  if (!isTimeoutSeconds(timeoutSeconds)) return usageError(`--timeout must be a number of seconds in (0, ${MAX_TIMEOUT_SECONDS}]`);
  const poolSize = Number(values.pool);
  if (!Number.isInteger(poolSize) || poolSize < 0 || poolSize > 16) return usageError('--pool must be an integer from 0 to 16');
  const token = values.token ?? process.env.ARBOR_TOKEN;
  if (values.attach !== undefined && values.http !== undefined) return usageError('--attach and --http do not combine (the workbench serves MCP over HTTP itself)');

  let prelude: string | undefined;
  if (values.prelude !== undefined) {
    try {
      prelude = await readFile(values.prelude, 'utf8');
    } catch (err) {
      return usageError(`cannot read prelude: ${(err as Error).message}`);
    }
  }
  let history: EditHistory | undefined;
  if (values.history !== undefined) {
    try {
      history = EditHistory.parse(await readFile(values.history, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return usageError(`--history: ${(err as Error).message}`);
    }
  }

  // The shell: our own (with a prover backend) or the workbench's.
  let port: ShellPort;
  let shell: Shell | undefined;
  let factory: EngineFactory | undefined;
  if (values.attach !== undefined) {
    try {
      port = await attachPort(values.attach, token !== undefined ? { token } : {});
    } catch (err) {
      process.stderr.write(`arbor-mcp: ${(err as Error).message}\n`);
      return 1;
    }
  } else {
    const backend = values.backend as BackendId;
    if (!['coq', 'eq', 'lean'].includes(backend)) return usageError(`unknown backend '${values.backend}' (coq, eq, lean)`);
    try {
      // The one backend composition (supervisor/compose-backends.ts), as arbor-shell and the workbench use it.
      factory = (await composeBackends({ backend, timeoutMs: timeoutSeconds * 1000, poolSize, ...(prelude !== undefined ? { prelude } : {}) })).factory as EngineFactory;
    } catch (err) {
      process.stderr.write(`arbor-mcp: backend ${backend}: cannot load main/provers/${backend}/${backend}-backend.ts: ${(err as Error).message}\n`);
      return 1;
    }
    const engines = factory;
    shell = new Shell({ createEngine: (ch, channelPrelude, environment) => engines.createEngine(ch, channelPrelude, environment) });
    port = inProcessPort(shell);
  }

  // The agent's session as a transcript (its own channel; scratch copies are its trials, not its proof).
  const transcript = values.transcript !== undefined
    ? recordTranscript({ onEvent: (l) => port.onEvent(l) }, values.transcript, (e) => (e.kind === 'request' ? e.channel : e.response.CHANNEL) === channel)
    : undefined;
  const session = new AgentSession({ port, channel, ...(history ? { history } : {}), ...(prelude !== undefined ? { prelude } : {}) });
  if (values.history !== undefined) {
    const file = values.history;
    let saving = Promise.resolve();
    session.history.onAdd(() => {
      saving = saving.then(() => writeFile(file, session.history.serialize())).catch((err: unknown) => {
        process.stderr.write(`arbor-mcp: cannot save the edit history: ${(err as Error).message}\n`);
      });
    });
  }
  const sources: SuggestionSource[] = [hammerPortfolio({ hammerSeconds: timeoutSeconds }), quickTactics()];
  if (values['chat-url'] !== undefined) {
    sources.push(chatCompletionsSource({
      url: values['chat-url'],
      model: values['chat-model'] ?? 'default',
      ...(process.env.ARBOR_CHAT_KEY ? { key: process.env.ARBOR_CHAT_KEY } : {}),
    }));
  }

  if (values.open !== undefined) {
    const failure = await runScript(port, channel, values.open);
    if (failure) process.stderr.write(`arbor-mcp: ${failure}\n`);
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await session.close();
      await transcript?.close();
      await port.close();
      await shell?.close();
      await factory?.dispose();
    })();
    return stopping;
  };
  const onSignal = (): void => {
    void stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  if (values.http !== undefined) {
    const httpPort = Number(values.http);
    if (!shell) return usageError('--http needs the own shell');
    const httpToken = token ?? randomBytes(24).toString('hex');
    const server = await createArborMcpHttpServer({ shell, token: httpToken, port: httpPort, session, sources });
    process.stderr.write(`arbor-mcp: MCP over streamable HTTP at ${server.url}\narbor-mcp: Authorization: Bearer ${httpToken}\n`);
    await new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.resume();
    });
    await server.close();
    await stop();
    return 0;
  }

  const server = createArborMcpServer(session, { sources, ...(values.agent !== undefined ? { agentName: values.agent } : {}) });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await ended;
  await server.close().catch(() => undefined);
  await stop();
  return 0;
}

/** Runs an .arbor file on the channel, stopping at the first error (which it returns). */
async function runScript(port: ShellPort, channel: number, file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return `cannot read ${file}: ${(err as Error).message}`;
  }
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    for (const request of splitRequests(line)) {
      const [r] = await port.submit(`${channel} ${request.text}`);
      if (r && r.ERR !== '') return `${file}:${i + 1}: ${request.text}: ${r.ERR}`;
    }
  }
  return undefined;
}

function usageError(message: string): number {
  process.stderr.write(`arbor-mcp: ${message}\n`);
  return 2;
}
