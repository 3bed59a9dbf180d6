import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nothing listens on now, for a server Arbor is about to start (Isa-REPL,
 * a test's redis-server): the kernel picks it, and it is free again once this returns.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
