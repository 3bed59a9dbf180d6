import { selectAppInfo, selectChannels } from '../store/channels-slice.ts';
import { selectDocuments } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import { releaseChannel } from '../services/arbor-api.ts';
import { checker } from '../services/workbench.ts';

/**
 * The shell's channels: backend, prover pid, state, step, CPU and memory, and which document uses each.
 * Restart gives a document's channel a fresh prover (its checked lines are replayed); Release kills a
 * channel no document uses (e.g. an agent's scratch channel).
 */
export function ChannelsPanel() {
  const channels = useArbor(selectChannels);
  const info = useArbor(selectAppInfo);
  const docs = useArbor(selectDocuments);
  const ownerOf = (id: number) => Object.entries(docs).find(([, d]) => d.channel === id);
  const owner = (id: number): string => ownerOf(id)?.[1].title ?? '';
  const dash = (x: number | undefined, unit: string): string => (x === undefined ? '–' : `${x} ${unit}`);
  return (
    <div className="channels-panel">
      {info && <p className="muted">backend {info.backend}: {info.backendAvailable ? 'available' : `not available (${info.problems.join('; ')})`} · host {info.host}</p>}
      <table>
        <thead><tr><th>channel</th><th>backend</th><th>pid</th><th>state</th><th>step</th><th>CPU</th><th>memory</th><th>document</th><th /></tr></thead>
        <tbody>
          {channels.map((c) => (
            <tr key={c.id} data-testid="channel-row">
              <td>{c.id}</td><td>{c.backend}</td><td>{c.pid ?? '–'}</td><td>{c.busy ? 'busy' : c.finished ? 'finished' : 'idle'}</td><td>{c.step}</td>
              <td data-testid="channel-cpu">{dash(c.cpuPercent, '%')}</td><td data-testid="channel-memory">{dash(c.rssMb, 'MB')}</td><td>{owner(c.id)}</td>
              <td>
                {ownerOf(c.id)
                  ? <button type="button" title="A fresh prover; the checked lines are replayed" onClick={() => void checker.restartProver(ownerOf(c.id)?.[0] ?? '')} data-testid="channel-restart">Restart</button>
                  : <button type="button" title="Kill this channel's prover and release it" onClick={() => void releaseChannel(c.id)} data-testid="channel-release">Release</button>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
