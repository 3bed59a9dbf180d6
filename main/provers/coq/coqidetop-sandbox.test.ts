import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../process/process-manager.ts';
import { CoqFailure, CoqideTopClient } from './coqidetop-client.ts';

/**
 * The sandbox holds when the policy is bypassed: forbidden sentences go straight to a real, sandboxed
 * coqidetop (no vernacular policy in between). CoqHammer runs its PredictPath as a shell command, so
 * that command is the escape attempt: it writes to the host's /tmp and dials a TCP server of this test.
 * A witness directory, the one host path bound writable, shows the command really ran inside.
 */
describe('a sandboxed coqidetop, policy bypassed', () => {
  const tag = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  let witness: string;
  let server: Server;
  let port = 0;
  let connections = 0;
  let c: CoqideTopClient;

  beforeAll(async () => {
    expect(sandboxStatus().state).toBe('on');
    witness = mkdtempSync(join(tmpdir(), 'arbor-witness-'));
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    c = await CoqideTopClient.start({ sandbox: { writable: [witness] } });
  });
  afterAll(async () => {
    await c.dispose();
    await new Promise((resolve) => server.close(resolve));
    rmSync(witness, { recursive: true, force: true });
    for (const f of readdirSync(tmpdir()).filter((n) => n.includes(tag))) rmSync(join(tmpdir(), f), { force: true });
  });

  const escapes = (): string[] => readdirSync(tmpdir()).filter((n) => n.includes(tag));

  it('Redirect and Cd reach only the sandbox', async () => {
    await c.addAndGoals(`Redirect "/tmp/arbor-escape2-${tag}" Print nat.`);
    await c.addAndGoals('Cd "/".');
    // Inside, / is the sandbox's root: the host's home directories are not there.
    const pwd = await c.addAndGoals('Pwd.');
    expect(pwd.messages.map((m) => m.text)).toEqual(['/']);
    expect(escapes()).toEqual([]);
  });

  it("CoqHammer's PredictPath shell command runs inside: it cannot write the host's /tmp, nor connect to 127.0.0.1", async () => {
    const dial = `bash -c 'echo hi > /dev/tcp/127.0.0.1/${port}' && touch ${witness}/connected || touch ${witness}/no-network`;
    await c.addAndGoals('From Hammer Require Import Hammer.');
    await c.addAndGoals(`Set Hammer PredictPath "touch /tmp/arbor-escape-${tag}; touch ${witness}/ran; ${dial}; predict".`);
    // Short limits: the ATPs need not succeed, only hammer must run the command.
    for (const s of ['Set Hammer ATPLimit 1.', 'Set Hammer ReconstrLimit 1.', 'Set Hammer SAutoLimit 0.']) await c.addAndGoals(s);
    await c.addAndGoals('Goal forall l1 l2 : list nat, length (l1 ++ l2) = length (l2 ++ l1).');
    // Proved or not (ATPs are given a second), what matters is where the command's effects landed.
    await c.addAndGoals('hammer.', 60_000).catch((e: unknown) => {
      if (!(e instanceof CoqFailure)) throw e;
    });
    expect(readdirSync(witness).sort()).toEqual(['no-network', 'ran']);
    expect(existsSync(join(tmpdir(), `arbor-escape-${tag}`))).toBe(false);
    expect(escapes()).toEqual([]);
    expect(connections).toBe(0);
  }, 90_000);
});
