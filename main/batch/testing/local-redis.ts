import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../process/free-port.ts';
import type { ManagedProcess } from '../../process/process-manager.ts';
import { startProcess } from '../../process/process-manager.ts';

/**
 * A private `redis-server` (the distribution's) for tests and the batch benchmark: 127.0.0.1 on a free
 * port, its own data directory, persistence on (append-only file, fsync always) so a restart keeps the
 * queue, started through the process manager and killed with the test.
 */
export interface LocalRedis {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** The server's pid now (it changes on a restart), to read its CPU time. */
  readonly pid: number | undefined;
  /** Stops the server (SIGTERM, as a service manager does) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
}

async function launch(port: number, dir: string): Promise<ManagedProcess> {
  const p = startProcess({
    program: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no', '--maxmemory-policy', 'noeviction'],
    cwd: dir,
    sandbox: false, // a test's queue server, reached over loopback
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (/Ready to accept connections/.test(out)) resolve();
    });
    void p.exited.then(() => reject(new Error(`redis-server exited before it was ready: ${out.slice(-500)}`)));
  });
  return p;
}

export async function startLocalRedis(): Promise<LocalRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-redis-'));
  const port = await freePort();
  let server = await launch(port, dir);
  const stop = async (): Promise<void> => {
    server.signal('SIGTERM');
    const timer = setTimeout(() => server.kill(), 10_000);
    await server.exited;
    clearTimeout(timer);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return server.pid;
    },
    async restart() {
      await stop();
      server = await launch(port, dir);
    },
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
