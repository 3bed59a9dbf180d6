import * as monaco from 'monaco-editor/editor/editor.api.js';
import { useEffect, useRef } from 'react';
import { lineOfStep, selectActiveCheck } from '../store/checking-slice.ts';
import { selectActiveUri } from '../store/documents-slice.ts';
import { selectSelectedId } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectShowsDocument, selectShownTree } from '../store/tree-selectors.ts';
import { findNode, openGoals } from '../../shared/proof-tree/tree-view-queries.ts';
import type { ContextEntry } from '../../shared/proof-tree/proof-state.ts';
import { getModel } from '../services/monaco-models.ts';
import { checker } from '../services/workbench.ts';
import './monaco-setup.ts';
import { registerShellLanguage, setAboutLookUp, setCompletionSource } from './shell-language.ts';
import { aboutForHover, recentSearchResults } from '../services/look-up.ts';
import { activeStateForLine } from '../store/goals-at-cursor.ts';

let editorInstance: monaco.editor.IStandaloneCodeEditor | undefined;

/** The editor's cursor line (for run-to-cursor from toolbar and menus). */
export function cursorLine(): number {
  return editorInstance?.getPosition()?.lineNumber ?? 1;
}

/** Inserts text at the cursor of the active editor (a name picked in the search panel). */
export function insertAtCursor(text: string): boolean {
  const editor = editorInstance;
  const selection = editor?.getSelection();
  if (!editor || !selection) return false;
  editor.executeEdits('arbor.insert', [{ range: selection, text, forceMoveMarkers: true }]);
  editor.focus();
  return true;
}

/** Puts the cursor on `line` of the active document and centres it (the problems list's links); the goals panel follows. */
export function revealLine(line: number): void {
  const editor = editorInstance;
  if (!editor) return;
  editor.setPosition({ lineNumber: line, column: 1 });
  editor.revealLineInCenterIfOutsideViewport(line);
  editor.focus();
  const s = useArbor.getState();
  if (s.documents.activeUri) s.setCursorAt(s.documents.activeUri, line);
}

export function focusEditor(): void {
  editorInstance?.focus();
}

/**
 * The Monaco editor on the active document's model, with the checking state as decorations: checked
 * region, running line, the failing line with its ERR inline, and the line that created the selected node.
 */
export function EditorPane() {
  const host = useRef<HTMLDivElement>(null);
  const decorations = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const uri = useArbor(selectActiveUri);
  const check = useArbor(selectActiveCheck);
  const tree = useArbor(selectShownTree);
  const selected = useArbor(selectSelectedId);
  const showsDocument = useArbor(selectShowsDocument);

  useEffect(() => {
    registerShellLanguage();
    setAboutLookUp(aboutForHover);
    // Completion and hover know the names of the proof state at their line (not only the latest goal's).
    setCompletionSource({
      contextAt: (line) => {
        const state = activeStateForLine(useArbor.getState(), line);
        // The goal the line's command acts on: the first open one, with its whole context (as the goals panel shows it).
        const goal = state ? openGoals(state)[0] : undefined;
        return goal ? [
          ...goal.vars.map((v): ContextEntry => ({ kind: 'var', name: v.name, text: v.type })),
          ...goal.hyps.map((h): ContextEntry => ({ kind: 'hyp', name: h.name, text: h.expr })),
        ] : [];
      },
      inProof: (line) => {
        const state = activeStateForLine(useArbor.getState(), line);
        return !!state && openGoals(state).length > 0;
      },
      searchResults: recentSearchResults,
      backend: () => useArbor.getState().host.info?.backend,
    });
    const editor = monaco.editor.create(host.current as HTMLDivElement, {
      model: null,
      theme: 'arbor-light',
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineNumbersMinChars: 3,
      glyphMargin: true,
      renderLineHighlight: 'line',
      scrollBeyondLastLine: false,
      matchBrackets: 'always',
      bracketPairColorization: { enabled: true },
      fixedOverflowWidgets: true,
      wordWrap: 'on',
      wrappingIndent: 'deepIndent',
      // Completion offers what fits here (commands, the goal's names, the document's theorems), never the
      // words of every open tab; Enter and Tab accept a completion, as in VS Code.
      wordBasedSuggestions: 'off',
      acceptSuggestionOnEnter: 'on',
      tabCompletion: 'on',
      quickSuggestions: { other: true, comments: false, strings: false },
    });
    editorInstance = editor;
    decorations.current = editor.createDecorationsCollection();
    // Where the user puts the cursor picks the item the derivation view shows (not where code moves it).
    editor.onDidChangeCursorPosition((e) => {
      if (e.source !== 'mouse' && e.source !== 'keyboard') return;
      const s = useArbor.getState();
      s.setCursorLine(e.position.lineNumber);
      // The goals panel shows the state at this line (read from the trees already here).
      if (s.documents.activeUri) s.setCursorAt(s.documents.activeUri, e.position.lineNumber);
    });
    const withUri = (run: (u: string) => void) => () => {
      const u = useArbor.getState().documents.activeUri;
      if (u) run(u);
    };
    // Proof General's keys, in Monaco's chord notation: Ctrl+Alt+↓/↑ step, Ctrl+Alt+Enter to cursor, Ctrl+Alt+End all.
    editor.addAction({ id: 'arbor.stepForward', label: 'Arbor: Step forward', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Alt | monaco.KeyCode.DownArrow], run: withUri((u) => void checker.stepForward(u)) });
    editor.addAction({ id: 'arbor.stepBack', label: 'Arbor: Step back', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Alt | monaco.KeyCode.UpArrow], run: withUri((u) => void checker.stepBack(u)) });
    editor.addAction({ id: 'arbor.runToCursor', label: 'Arbor: Run to cursor', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Alt | monaco.KeyCode.Enter], run: withUri((u) => void checker.runTo(u, cursorLine())) });
    editor.addAction({ id: 'arbor.runAll', label: 'Arbor: Run all', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Alt | monaco.KeyCode.End], run: withUri((u) => void checker.runAll(u)) });
    return () => {
      editor.dispose();
      editorInstance = undefined;
    };
  }, []);

  useEffect(() => {
    const model = uri ? getModel(uri) ?? null : null;
    if (editorInstance && editorInstance.getModel() !== model) editorInstance.setModel(model);
    // Which document the editor shows, once it shows it (tests and tools wait on this, not on time).
    if (host.current) host.current.dataset.uri = model ? uri ?? '' : '';
  }, [uri]);


  useEffect(() => {
    const model = uri ? getModel(uri) : undefined;
    if (!model || !decorations.current) return;
    const list: monaco.editor.IModelDeltaDecoration[] = [];
    const last = check.entries.at(-1)?.line ?? 0;
    if (last > 0) {
      list.push({ range: new monaco.Range(1, 1, last, 1), options: { isWholeLine: true, className: 'arbor-checked', marginClassName: 'arbor-checked-margin' } });
    }
    if (check.running) {
      list.push({ range: new monaco.Range(check.running.line, 1, check.running.line, 1), options: { isWholeLine: true, className: 'arbor-running', glyphMarginClassName: 'arbor-running-glyph' } });
    }
    const markers: monaco.editor.IMarkerData[] = [];
    if (check.error && check.error.line <= model.getLineCount()) {
      const line = check.error.line;
      list.push({
        range: new monaco.Range(line, 1, line, model.getLineMaxColumn(line)),
        options: {
          isWholeLine: true, className: 'arbor-error-line', glyphMarginClassName: 'arbor-error-glyph',
          after: { content: `  ⟵ ${check.error.message.length > 160 ? `${check.error.message.slice(0, 160)}…` : check.error.message}`, inlineClassName: 'arbor-inline-error' },
        },
      });
      markers.push({ severity: monaco.MarkerSeverity.Error, message: check.error.message, startLineNumber: line, startColumn: model.getLineFirstNonWhitespaceColumn(line) || 1, endLineNumber: line, endColumn: model.getLineMaxColumn(line) });
    }
    monaco.editor.setModelMarkers(model, 'arbor', markers);
    // The line that created the selected node.
    const node = tree && selected !== null && showsDocument ? findNode(tree, selected) : undefined;
    const origin = node ? lineOfStep(check, node.step) : undefined;
    if (origin !== undefined) {
      list.push({ range: new monaco.Range(origin, 1, origin, 1), options: { isWholeLine: true, className: 'arbor-origin-line', linesDecorationsClassName: 'arbor-origin-bar' } });
    }
    decorations.current.set(list);
    if (origin !== undefined) editorInstance?.revealLineInCenterIfOutsideViewport(origin);
  }, [uri, check, tree, selected, showsDocument]);

  return <div className="editor-host" ref={host} data-testid="editor" />;
}
