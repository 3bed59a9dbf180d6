import { selectAppInfo, selectChannels } from '../store/channels-slice.ts';
import { selectDocuments } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';

/** The shell's channels: backend, prover pid, busy, step, and which document uses each. */
export function ChannelsPanel() {
  const channels = useArbor(selectChannels);
  const info = useArbor(selectAppInfo);
  const docs = useArbor(selectDocuments);
  const owner = (id: number): string => Object.values(docs).find((d) => d.channel === id)?.title ?? '';
  return (
    <div className="channels-panel">
      {info && <p className="muted">backend {info.backend}: {info.backendAvailable ? 'available' : `not available (${info.problems.join('; ')})`} · host {info.host}</p>}
      <table>
        <thead><tr><th>channel</th><th>backend</th><th>pid</th><th>state</th><th>step</th><th>document</th></tr></thead>
        <tbody>
          {channels.map((c) => (
            <tr key={c.id} data-testid="channel-row">
              <td>{c.id}</td><td>{c.backend}</td><td>{c.pid ?? '–'}</td><td>{c.busy ? 'busy' : c.finished ? 'finished' : 'idle'}</td><td>{c.step}</td><td>{owner(c.id)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
