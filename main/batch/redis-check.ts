import { Redis } from 'ioredis';

/**
 * Before a batch uses Redis: does it answer within a few seconds (the batch's own connections then wait
 * through restarts, so an unreachable address must be said at once), and will it keep BullMQ's data
 * (persistence on, no eviction)?
 */
export async function checkRedis(url: string): Promise<{ error?: string; notices: string[] }> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    return { error: (err as Error).message, notices: [] };
  }
  const notices: string[] = [];
  try {
    const get = async (key: string): Promise<string | undefined> => ((await client.config('GET', key)) as string[])[1];
    if ((await get('appendonly')) !== 'yes' && ((await get('save')) ?? '') === '') {
      notices.push('Redis keeps no data across a restart (appendonly no, no save points): jobs it loses are added again and run again');
    }
    const policy = await get('maxmemory-policy');
    if (policy !== undefined && policy !== 'noeviction') notices.push(`Redis maxmemory-policy is ${policy}: BullMQ needs noeviction (evicted jobs run again)`);
  } catch {
    // CONFIG is often disabled on managed Redis: nothing to say.
  } finally {
    client.disconnect();
  }
  return { notices };
}
