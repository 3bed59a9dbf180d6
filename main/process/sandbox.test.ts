import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runProcess, sandboxStatus, startProcess, type ManagedProcess } from './process-manager.ts';
import { descendants, listProcesses } from './process-tree.ts';

// Real bwrap, real processes. This machine has bubblewrap (scripts/install.sh installs it).
const bash = (script: string, extra: Partial<Parameters<typeof runProcess>[0]> = {}) => runProcess({ program: 'bash', args: ['-c', script], timeoutMs: 30_000, ...extra });

/** The command line of a process, or '' once it is gone. */
const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

/** Host pids of running `sleep` processes whose command line contains `marker` (not bwrap's, which holds it too). */
const sleeping = (marker: string): number[] => listProcesses().filter((p) => p.name === 'sleep' && cmdline(p.pid).includes(marker)).map((p) => p.pid);

const collect = (p: ManagedProcess): { text: () => string } => {
  let out = '';
  p.stdout.setEncoding('utf8');
  p.stdout.on('data', (c: string) => { out += c; });
  return { text: () => out };
};

describe('the sandbox (bubblewrap)', () => {
  let outside: string;
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    outside = mkdtempSync(join(tmpdir(), 'arbor-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    rmSync(outside, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  it('works on this machine, and says so', () => {
    expect(sandboxStatus()).toMatchObject({ state: 'on' });
  });

  it('cannot read a file outside its binds, nor home directories, nor the rest of /etc', async () => {
    const secret = join(outside, 'secret.txt');
    // Unsandboxed, the same command reads it: the assertion below can fail.
    expect((await bash(`cat ${secret}`, { sandbox: false })).stdout).toBe('secret');
    const r = await bash(`cat ${secret}; ls ${homedir()} /home; test -e /etc/hostname && echo has-hostname; echo done`);
    expect(r.stdout).not.toContain('secret');
    expect(r.stdout).not.toContain('has-hostname');
    expect(r.stdout).toContain('done');
    expect(r.stderr).toMatch(/No such file or directory/);
  });

  it('reads what the caller binds read-only, and cannot write it', async () => {
    const r = await bash(`cat ${join(outside, 'secret.txt')}; echo x > ${join(outside, 'new.txt')} || echo refused`, { sandbox: { readOnly: [outside] } });
    expect(r.stdout).toBe('secretrefused\n');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('writes only its own directory and a private /tmp; the system is read-only', async () => {
    const marker = `arbor-private-${process.pid}-${Date.now()}`;
    const r = await bash(`touch /tmp/${marker} && echo tmp-ok; touch /usr/${marker} || echo usr-refused; touch here && echo cwd-ok; echo "$HOME"`);
    expect(r.stdout).toMatch(/tmp-ok\nusr-refused\ncwd-ok\n\/tmp\/arbor-proc-/);
    expect(existsSync(join(tmpdir(), marker))).toBe(false);
    expect(existsSync(join('/usr', marker))).toBe(false);
  });

  it('gets a minimal environment', async () => {
    const r = await runProcess({ program: 'env', timeoutMs: 10_000, env: { ...process.env, ARBOR_TEST_SECRET: 'leak', PATH: '/usr/bin:/bin' } });
    const names = r.stdout.trim().split('\n').map((l) => l.split('=')[0]).sort();
    expect(names).toEqual(['ARBOR_IN_SANDBOX', 'HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR']); // PWD: bwrap's --chdir
  });

  it('has no network: a TCP server on 127.0.0.1 sees no connection', async () => {
    const script = `echo hi > /dev/tcp/127.0.0.1/${port} && echo connected || echo refused`;
    expect((await bash(script)).stdout).toContain('refused');
    expect(connections).toBe(0);
    // The same command outside the sandbox does connect: the test can tell.
    expect((await bash(script, { sandbox: false })).stdout).toContain('connected');
    await vi.waitFor(() => expect(connections).toBe(1));
  });

  it('removes its private working directory after exit', async () => {
    const p = startProcess({ program: 'bash', args: ['-c', 'pwd; echo data > file; cat file'] });
    const out = collect(p);
    await p.exited;
    const [dir, data] = out.text().trim().split('\n');
    expect(dir).toMatch(/arbor-proc-/);
    expect(data).toBe('data');
    expect(existsSync(dir as string)).toBe(false);
  });

  it('killing the group kills bwrap and everything inside it', async () => {
    const marker = `${600 + Math.floor(Math.random() * 300)}.${process.pid}`;
    const p = startProcess({ program: 'bash', args: ['-c', `sleep ${marker} & sleep ${marker} & wait`] });
    expect(p.sandboxed).toBe(true);
    await vi.waitFor(() => expect(sleeping(marker)).toHaveLength(2), { timeout: 10_000 });
    expect(descendants(p.pid as number).some((d) => d.name === 'sleep')).toBe(true);
    p.kill();
    await p.exited;
    await vi.waitFor(() => expect(sleeping(marker)).toEqual([]), { timeout: 10_000 });
  });

  it('an interrupt (SIGINT) reaches the program inside, and the sandbox survives it', async () => {
    const p = startProcess({ program: 'bash', args: ['-c', 'trap "echo interrupted" INT; echo ready; while true; do sleep 0.05; done'] });
    const out = collect(p);
    await vi.waitFor(() => expect(out.text()).toContain('ready'), { timeout: 10_000 });
    p.signal('SIGINT');
    await vi.waitFor(() => expect(out.text()).toContain('interrupted'), { timeout: 10_000 });
    expect(p.alive).toBe(true);
    p.kill();
    await p.exited;
  });

  it('dies with its parent (--die-with-parent): Arbor SIGKILLed leaves nothing running inside', async () => {
    const marker = `${900 + Math.floor(Math.random() * 90)}.${process.pid}`;
    const manager = fileURLToPath(new URL('./process-manager.ts', import.meta.url));
    const parentScript = `import { startProcess } from ${JSON.stringify(manager)}; startProcess({ program: 'sleep', args: [${JSON.stringify(marker)}] }); console.log('started'); setInterval(() => undefined, 1000);`;
    const parent = startProcess({ program: process.execPath, args: ['--import', 'tsx', '--input-type=module', '-e', parentScript], cwd: fileURLToPath(new URL('../../', import.meta.url)), sandbox: false });
    const out = collect(parent);
    await vi.waitFor(() => {
      expect(out.text()).toContain('started');
      expect(sleeping(marker)).toHaveLength(1);
    }, { timeout: 30_000 });
    parent.kill();
    await parent.exited;
    await vi.waitFor(() => expect(sleeping(marker)).toEqual([]), { timeout: 10_000 });
  });

  it('ARBOR_SANDBOX=off turns it off and says so; an Arbor inside a sandbox inherits it', async () => {
    const manager = fileURLToPath(new URL('./process-manager.ts', import.meta.url));
    const script = `import { sandboxStatus, startProcess } from ${JSON.stringify(manager)}; const p = startProcess({ program: 'true' }); await p.exited; console.log(JSON.stringify({ ...sandboxStatus(), sandboxed: p.sandboxed }));`;
    const report = async (env: NodeJS.ProcessEnv): Promise<unknown> => {
      const r = await runProcess({ program: process.execPath, args: ['--import', 'tsx', '--input-type=module', '-e', script], cwd: fileURLToPath(new URL('../../', import.meta.url)), env, timeoutMs: 30_000, sandbox: false });
      return JSON.parse(r.stdout) as unknown;
    };
    expect(await report({ ...process.env, ARBOR_SANDBOX: 'off' })).toEqual({ state: 'off', detail: 'turned off by ARBOR_SANDBOX=off', sandboxed: false });
    // Outside a sandbox the variable is not believed (it used to switch containment off while reporting "on").
    const stray = await report({ ...process.env, ARBOR_IN_SANDBOX: '1' });
    expect(stray).toMatchObject({ state: 'on', sandboxed: true });
    expect(stray).not.toHaveProperty('inherited');
    expect(await report(process.env)).toMatchObject({ state: 'on', sandboxed: true });
    // Inside a real sandbox (bwrap is its process 1) the variable is believed: an Arbor there inherits it.
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const inside = await runProcess({
      program: process.execPath, args: ['--import', 'tsx', '--input-type=module', '-e', script], cwd: root, timeoutMs: 30_000,
      sandbox: { readOnly: [root, realpathSync(join(root, 'node_modules'))] },
    });
    expect(JSON.parse(inside.stdout), inside.stderr).toMatchObject({ state: 'on', inherited: true, sandboxed: false });
  });

  it('keeps the address-space cap (prlimit outside, inherited inside)', async () => {
    const r = await bash('ulimit -v', { memoryLimitMb: 512 });
    expect(r.stdout.trim()).toBe(String(512 * 1024));
  });
});
