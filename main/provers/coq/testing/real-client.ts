import { afterAll, beforeAll } from 'vitest';
import { CoqideTopClient } from '../coqidetop-client.ts';

/**
 * Starts one real coqidetop client before the tests of the suite this is called in (a `describe`, or the file
 * at its top level) and disposes of it after them; returns what gives the running client.
 */
export function useRealClient(): () => CoqideTopClient {
  let client: CoqideTopClient | undefined;
  beforeAll(async () => {
    client = await CoqideTopClient.start();
  }, 60_000);
  afterAll(async () => {
    await client?.dispose();
  });
  return () => {
    if (!client) throw new Error('useRealClient: the client runs only inside the tests of its suite');
    return client;
  };
}
