import * as monaco from 'monaco-editor/editor/editor.api.js';
import { SHELL_LANGUAGE_ID } from '../../shared/language/shell-language-id.ts';

/**
 * Monaco models live here, keyed by URI, never in the store (they are large, mutable and not
 * serialisable). The store holds only each document's metadata.
 */
const models = new Map<string, monaco.editor.ITextModel>();

export function createModel(uri: string, text: string): monaco.editor.ITextModel {
  const existing = models.get(uri);
  if (existing) {
    existing.setValue(text);
    return existing;
  }
  const model = monaco.editor.createModel(text, SHELL_LANGUAGE_ID, monaco.Uri.parse(toMonacoUri(uri)));
  model.updateOptions({ tabSize: 4, insertSpaces: true });
  models.set(uri, model);
  return model;
}

export function getModel(uri: string): monaco.editor.ITextModel | undefined {
  return models.get(uri);
}

export function disposeModel(uri: string): void {
  models.get(uri)?.dispose();
  models.delete(uri);
}

export function modelLines(uri: string): string[] | undefined {
  return models.get(uri)?.getLinesContent();
}

/** Our URIs are `untitled:N` or `file:` paths; Monaco wants proper URIs. */
function toMonacoUri(uri: string): string {
  return uri.startsWith('untitled:') ? `inmemory://arbor/${uri.slice(9)}` : `file://${uri.replace(/^file:\/\//, '')}`;
}
