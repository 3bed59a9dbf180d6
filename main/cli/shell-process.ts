import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LineSplitter } from '../../shared/protocol/line-splitter.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';

const BIN = fileURLToPath(new URL('../../bin/arbor-shell.js', import.meta.url));

/**
 * A running `arbor-shell` process and a client for it: send requests, await responses per channel in
 * order. Used by the integration tests, the benchmarks and tools that drive a shell from outside.
 */
export class ShellProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, ((r: ShellResponse) => void)[]>();
  private readonly early = new Map<number, ShellResponse[]>();
  private readonly exited: Promise<number | null>;
  stderr = '';

  constructor(args: string[] = [], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe', env });
    const splitter = new LineSplitter(64 << 20);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      for (const line of splitter.push(chunk)) if (line.text !== '') this.deliver(JSON.parse(line.text) as ShellResponse);
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => { this.stderr += chunk; });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Writes raw text (it may hold several requests, or none); returns nothing. */
  write(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  /** The next response on `channel` (responses of one channel arrive in request order). */
  next(channel = 0): Promise<ShellResponse> {
    const ready = this.early.get(channel);
    if (ready && ready.length > 0) return Promise.resolve(ready.shift() as ShellResponse);
    return new Promise((resolve) => {
      const list = this.waiting.get(channel) ?? [];
      list.push(resolve);
      this.waiting.set(channel, list);
    });
  }

  /** Sends one request line and awaits its response. */
  async request(line: string, channel = leadingChannel(line)): Promise<ShellResponse> {
    const response = this.next(channel);
    this.write(`${line}\n`);
    return response;
  }

  /** Sends `requests` on a channel of their own (opened for them, released after) and returns their responses. */
  async onFreshChannel(requests: readonly string[]): Promise<ShellResponse[]> {
    const ch = ((await this.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    const out: ShellResponse[] = [];
    for (const r of requests) out.push(await this.request(`${ch} ${r}`, ch));
    await this.request(`${ch} RELEASE_CHANNEL`, ch);
    return out;
  }

  /** Closes stdin and waits for the exit status. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  private deliver(response: ShellResponse): void {
    const list = this.waiting.get(response.CHANNEL);
    const resolve = list?.shift();
    if (resolve) resolve(response);
    else {
      const queue = this.early.get(response.CHANNEL) ?? [];
      queue.push(response);
      this.early.set(response.CHANNEL, queue);
    }
  }
}

function leadingChannel(line: string): number {
  const m = /^\s*([0-9]+)\s/.exec(line);
  return m ? Number(m[1]) : 0;
}
