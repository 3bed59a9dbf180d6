import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { ShellProcess } from './shell-process.ts';

/** First requested, first served — through the real arbor-shell and coqidetop, byte stream to byte stream. */
describe('arbor-shell answers each channel in request order (real coqidetop)', () => {
  it('an unknown command waits for the requests before it', async () => {
    const shell = new ShellProcess();
    try {
      shell.write('GOAL "forall n : nat, n + 0 = n"; END; FROBNICATE; STATE\n');
      const rs: ShellResponse[] = [];
      for (let i = 0; i < 4; i++) rs.push(await shell.next(0));
      expect(rs.map((r) => r.ERR)).toEqual(['', '', 'unknown command: FROBNICATE', '']);
      expect(rs[1]?.SCRIPT).toBeDefined();
    } finally {
      await shell.end();
    }
  }, 120_000);

  it('RELEASE_CHANNEL is served after the requests before it; later ones answer bad channel, in order', async () => {
    const shell = new ShellProcess();
    try {
      const created = await shell.request('NEW_CHANNEL', 0);
      const ch = (created.RESPONSE as { ID: number }).ID;
      shell.write(`${ch} GOAL "forall n : nat, n + 0 = n"; ${ch} END; ${ch} RELEASE_CHANNEL; ${ch} STATE; ${ch} GOAL "open\n`);
      const rs: ShellResponse[] = [];
      for (let i = 0; i < 5; i++) rs.push(await shell.next(ch));
      expect(rs.map((r) => r.ERR)).toEqual(['', '', '', 'bad channel', 'bad channel']);
      expect(rs[1]?.RESPONSE).toEqual({ ctxt: { vars: [], hyps: [] }, goal: [] });
    } finally {
      await shell.end();
    }
  }, 120_000);

  it('a prover over its memory cap is a clear error; the shell goes on serving', async () => {
    const shell = new ShellProcess(['--prover-memory', '256']);
    try {
      const r = await shell.request('GOAL "1 = 1"', 0);
      expect(r.ERR).toMatch(/coqidetop/);
      expect((await shell.request('FROBNICATE', 0)).ERR).toBe('unknown command: FROBNICATE');
    } finally {
      await shell.end();
    }
  }, 60_000);

  it('200 NEW_CHANNEL requests open at most --max-channels channels and refuse the rest', async () => {
    const shell = new ShellProcess(['--max-channels', '3', '--pool', '0']);
    try {
      shell.write(`${Array.from({ length: 200 }, () => 'NEW_CHANNEL').join('; ')}\n`);
      const rs: ShellResponse[] = [];
      for (let i = 0; i < 200; i++) rs.push(await shell.next(0));
      expect(rs.filter((r) => r.ERR === '')).toHaveLength(2);
      expect(rs.filter((r) => /^too many channels/.test(r.ERR))).toHaveLength(198);
      // The shell still works.
      expect((await shell.request('GOAL "True"', 0)).ERR).toBe('');
    } finally {
      await shell.end();
    }
  }, 120_000);
});
