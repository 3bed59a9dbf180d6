import { useEffect, useState } from 'react';
import type { DirEntry } from '../../shared/api/api-contract.ts';
import { selectAppInfo } from '../store/channels-slice.ts';
import { selectActiveUri } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectOpenDialog } from '../store/ui-slice.ts';
import { listDir } from '../services/arbor-api.ts';
import { openPath, saveTo } from '../services/workbench.ts';

/**
 * The name Save as proposes: the file's own name, else a copied example's (`Example 03-sqrt2.arbor` →
 * `03-sqrt2.arbor`), else `proof.arbor` for an untitled document.
 */
export function suggestedName(path: string | undefined, title: string | undefined): string {
  const base = path?.replace(/^.*[\\/]/, '');
  if (base) return base;
  const named = title?.replace(/^Example /, '');
  return named && /\.[A-Za-z]+$/.test(named) ? named : 'proof.arbor';
}

/** The in-app open/save dialog (the web host has no native dialogs): browses the workspace and examples. */
export function FileDialog() {
  const mode = useArbor(selectOpenDialog);
  const info = useArbor(selectAppInfo);
  const active = useArbor(selectActiveUri);
  const [dir, setDir] = useState<string | undefined>(undefined);
  const [listing, setListing] = useState<{ dir: string; parent: string | null; entries: DirEntry[] } | null>(null);
  const [name, setName] = useState('proof.arbor');
  const [error, setError] = useState('');
  /** The existing file Save as would replace, once asked about (it is replaced only on a second yes). */
  const [replacing, setReplacing] = useState<string | null>(null);
  // Save as opens in the document's own folder when it has one outside the (read-only) examples; else the workspace.
  useEffect(() => {
    if (mode !== 'save') return;
    const doc = active ? useArbor.getState().documents.docs[active] : undefined;
    const path = doc?.path;
    const folder = path?.replace(/[\\/][^\\/]*$/, '');
    setDir(folder && !(info?.examplesDir && folder.startsWith(info.examplesDir)) ? folder : undefined);
    setName(suggestedName(doc?.path, doc?.title));
    setReplacing(null);
  }, [mode, active, info?.examplesDir]);
  useEffect(() => {
    if (!mode) return;
    setError('');
    listDir(dir).then(setListing, (e: Error) => setError(e.message));
  }, [mode, dir]);
  if (!mode) return null;
  const close = (): void => useArbor.getState().setOpenDialog(null);
  return (
    <div className="dialog-backdrop" onClick={close}>
      <div className="dialog" role="dialog" aria-label={mode === 'open' ? 'Open file' : 'Save file'} onClick={(e) => e.stopPropagation()}>
        <h3>{mode === 'open' ? 'Open' : 'Save as'}</h3>
        <div className="dialog-places">
          <button type="button" onClick={() => setDir(undefined)}>Workspace</button>
          {/* Examples are read-only: they open as untitled copies, and nothing is saved there. */}
          {info?.examplesDir && mode === 'open' && <button type="button" onClick={() => setDir(info.examplesDir)} data-testid="examples" title="Opens a copy: the shipped file is never edited">Examples</button>}
        </div>
        <div className="muted">{listing?.dir}</div>
        {error && <div className="message error">{error}</div>}
        <ul className="file-list">
          {listing?.parent && <li><button type="button" onClick={() => setDir(listing.parent ?? undefined)}>..</button></li>}
          {listing?.entries.map((e) => (
            <li key={e.path}>
              <button
                type="button" data-testid="file-entry" className={e.kind}
                onClick={async () => {
                  if (e.kind === 'dir') setDir(e.path);
                  else if (mode === 'open') {
                    close();
                    await openPath(e.path);
                  } else setName(e.name);
                }}
              >{e.kind === 'dir' ? '📁 ' : ''}{e.name}</button>
            </li>
          ))}
        </ul>
        {mode === 'save' && (
          <form onSubmit={async (ev) => {
            ev.preventDefault();
            if (!active || !listing) return;
            // An existing file is not overwritten without asking (its contents would be lost).
            if (replacing !== name && listing.entries.some((e) => e.kind !== 'dir' && e.name === name)) {
              setReplacing(name);
              return;
            }
            setReplacing(null);
            close();
            await saveTo(active, `${listing.dir}/${name}`);
          }}>
            <input value={name} onChange={(e) => { setName(e.target.value); setReplacing(null); }} aria-label="file name" />
            <button type="submit" data-testid="save-as-submit">{replacing === name ? 'Replace' : 'Save'}</button>
            {replacing === name && <div className="message" data-testid="save-as-replace">{name} already exists. Replace it?</div>}
          </form>
        )}
        <button type="button" onClick={close}>Close</button>
      </div>
    </div>
  );
}
