import { afterAll, beforeAll } from 'vitest';
import { CoqideTopClient, type ClientOptions } from '../coqidetop-client.ts';
import { markArborPlugin, withArborPlugin } from '../arbor-plugin.ts';

/** Client options with Arbor's Coq plugin loaded, as a channel's coqidetop has it; throws where it is not built. */
export function pluginOptions(options: ClientOptions = {}): ClientOptions {
  const withPlugin = withArborPlugin(options);
  if (withPlugin === undefined) throw new Error("Arbor's Coq plugin is not built: run `bash coq-plugin/build.sh` (scripts/install.sh does)");
  return withPlugin;
}

/**
 * Starts one real coqidetop client before the tests of the suite this is called in (a `describe`, or the file
 * at its top level) and disposes of it after them; returns what gives the running client. With `plugin`, the
 * client loads Arbor's Coq plugin, as a channel's does.
 */
export function useRealClient(options: { plugin?: boolean } = {}): () => CoqideTopClient {
  let client: CoqideTopClient | undefined;
  beforeAll(async () => {
    client = await CoqideTopClient.start(options.plugin === true ? pluginOptions() : {});
    // As the channel's tip does (coq-tip.ts): END's reading then asks the plugin.
    if (options.plugin === true) markArborPlugin(client);
  }, 60_000);
  afterAll(async () => {
    await client?.dispose();
  });
  return () => {
    if (!client) throw new Error('useRealClient: the client runs only inside the tests of its suite');
    return client;
  };
}
