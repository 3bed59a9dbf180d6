import { useEffect, useRef } from 'react';
import { selectDocuments } from '../store/documents-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectClosing } from '../store/ui-slice.ts';
import { closeDocument, saveAndClose } from '../services/workbench.ts';

/**
 * Closing a tab with unsaved changes asks first, in the page (the web host has no native dialogs):
 * Save, Don't save (the changes and their recovery go), or Cancel (nothing changes; Escape too).
 */
export function CloseDialog() {
  const uri = useArbor(selectClosing);
  const docs = useArbor(selectDocuments);
  const save = useRef<HTMLButtonElement>(null);
  useEffect(() => save.current?.focus(), [uri]);
  const doc = uri ? docs[uri] : undefined;
  if (!uri || !doc) return null;
  const cancel = (): void => useArbor.getState().setClosing(null);
  return (
    <div className="dialog-backdrop" onClick={cancel}>
      <div
        className="dialog close-dialog" role="alertdialog" aria-modal="true" aria-labelledby="close-dialog-title" data-testid="close-dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => { if (e.key === 'Escape') cancel(); }}
      >
        <h3 id="close-dialog-title">Save changes to {doc.title}?</h3>
        <p>{doc.path ? doc.path : 'This document has never been saved.'} Its unsaved changes are lost if you do not save them.</p>
        <div className="dialog-buttons">
          <button type="button" ref={save} data-testid="close-save" onClick={() => void saveAndClose(uri)}>Save</button>
          <button type="button" data-testid="close-discard" onClick={() => { cancel(); void closeDocument(uri, true); }}>Don't save</button>
          <button type="button" data-testid="close-cancel" onClick={cancel}>Cancel</button>
        </div>
      </div>
    </div>
  );
}
