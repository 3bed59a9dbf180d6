import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startAdvisorServer } from '../provers/eq/advisor-server.ts';
import { parseArticle } from '../provers/eq/article.ts';
import { DEFAULT_PRELUDE } from '../provers/eq/default-prelude.ts';
import { TermBank } from '../provers/eq/term.ts';

const run = promisify(execFile);

describe('arbor-shell --advisor (eq backend)', () => {
  it('passes the advisor to the eq sessions: HAMMER closes the goal through it', async () => {
    const bank = new TermBank();
    const server = await startAdvisorServer({ port: 0, bank, equations: parseArticle(bank, DEFAULT_PRELUDE).equations });
    let connections = 0;
    server.on('connection', () => connections++);
    try {
      const port = (server.address() as AddressInfo).port;
      const input = 'GOAL "e * ((x * e) * e) = x"\nHAMMER\n';
      const { stdout } = await run('sh', ['-c', `printf '${input.replace(/\n/g, '\\n')}' | node bin/arbor-shell.js --backend eq --advisor 127.0.0.1:${port}`], { timeout: 60_000 });
      const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { ERR: string });
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatchObject({ ERR: '', STEP: 2 });
      expect(connections).toBe(1);
    } finally {
      server.close();
    }
  });
  it('refuses a malformed address with a usage error', async () => {
    await expect(run('node', ['bin/arbor-shell.js', '--backend', 'eq', '--advisor', 'nowhere'], { timeout: 30_000 })).rejects.toMatchObject({ code: 2 });
  });
});
