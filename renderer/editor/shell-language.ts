import * as monaco from 'monaco-editor/editor/editor.api.js';
import { COMMAND_DOCS } from '../../shared/language/command-docs.ts';
import type { ContextEntry } from '../../shared/proof-tree/proof-state.ts';
import { COMMAND_NAMES, linePattern } from '../../shared/protocol/commands.ts';
import { isMinilangName } from '../../shared/protocol/shell-command.ts';
import { completionPlace } from './completion-place.ts';
import { documentNames } from './document-names.ts';

import { SHELL_LANGUAGE_ID } from '../../shared/language/shell-language-id.ts';

export { SHELL_LANGUAGE_ID };

/**
 * What completion and hover know of the place they are asked at (set by the editor pane): the hypotheses
 * and variables of the proof state at a line (the state before that line's command), lemmas found by
 * SEARCH, and the backend (Isabelle-only commands are offered only there).
 */
export interface CompletionSource {
  contextAt(line: number): ContextEntry[];
  /** Whether `line` is inside a proof not yet finished (its own theorem is not yet usable there). */
  inProof(line: number): boolean;
  searchResults(): { name: string; type: string }[];
  backend(): string | undefined;
}
let source: CompletionSource = { contextAt: () => [], inProof: () => false, searchResults: () => [], backend: () => undefined };
export function setCompletionSource(s: CompletionSource): void {
  source = s;
}

/** Asks the document's prover what a name is (set by the editor pane; hover shows the answer). */
type AboutLookUp = (name: string) => Promise<{ name: string; type: string; module?: string; kind?: string } | undefined>;
let about: AboutLookUp | undefined;
export function setAboutLookUp(lookUp: AboutLookUp): void {
  about = lookUp;
}

let registered = false;

/** Lines that open a block its END closes (GOAL, HAVE, OBTAIN): the next line is indented. */
const BLOCK_OPENERS = linePattern((c) => c.opensBlock === true);

/** The proof-shell language: Monarch tokens, brackets and quotes, hover docs, completion. */
export function registerShellLanguage(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: SHELL_LANGUAGE_ID, extensions: ['.arbor'], aliases: ['Arbor shell'] });
  monaco.languages.setMonarchTokensProvider(SHELL_LANGUAGE_ID, {
    commands: [...COMMAND_NAMES],
    keywords: ['where', 'and'],
    tokenizer: {
      root: [
        [/^\s*\/\/.*$/, 'comment'],
        [/^\s*[0-9]+(?=\s)/, 'number.channel'],
        [/[A-Z_]+(?=\s|$|;)/, { cases: { '@commands': 'keyword', '@default': 'identifier' } }],
        [/\?[A-Za-z_][\w']*/, 'variable.abbrev'],
        [/"/, { token: 'string.quote', next: '@string' }],
        [/‹/, { token: 'string.quote', next: '@cartouche' }],
        [/\\<open>/, { token: 'string.quote', next: '@cartoucheAscii' }],
        [/[()[\]{}]/, '@brackets'],
        [/;/, 'delimiter'],
        [/::/, 'operator'],
        [/[0-9]+(\.[0-9]+)?/, 'number'],
        [/[A-Za-z_][\w'.]*/, { cases: { '@keywords': 'keyword.other', '@default': 'identifier' } }],
      ],
      string: [
        [/\\"/, 'string.escape'],
        [/"/, { token: 'string.quote', next: '@pop' }],
        [/[^"\\]+/, 'string'],
        [/./, 'string'],
      ],
      cartouche: [[/›/, { token: 'string.quote', next: '@pop' }], [/[^›]+/, 'string']],
      cartoucheAscii: [[/\\<close>/, { token: 'string.quote', next: '@pop' }], [/./, 'string']],
    },
  } as monaco.languages.IMonarchLanguage);
  monaco.languages.setLanguageConfiguration(SHELL_LANGUAGE_ID, {
    comments: { lineComment: '//' },
    brackets: [['(', ')'], ['[', ']'], ['{', '}']],
    autoClosingPairs: [
      { open: '(', close: ')' }, { open: '[', close: ']' }, { open: '{', close: '}' },
      { open: '"', close: '"', notIn: ['string'] }, { open: '‹', close: '›' },
    ],
    surroundingPairs: [{ open: '(', close: ')' }, { open: '"', close: '"' }, { open: '[', close: ']' }],
    indentationRules: { increaseIndentPattern: BLOCK_OPENERS, decreaseIndentPattern: /^\s*END\b/ },
  });
  monaco.languages.registerHoverProvider(SHELL_LANGUAGE_ID, {
    provideHover(model, position) {
      const word = model.getWordAtPosition(position);
      if (!word) return null;
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const doc = (COMMAND_DOCS as Record<string, (typeof COMMAND_DOCS)[keyof typeof COMMAND_DOCS] | undefined>)[word.word];
      if (doc) return { range, contents: [{ value: `**${word.word}** — \`${doc.syntax}\`` }, { value: doc.summary }] };
      const entry = source.contextAt(position.lineNumber).find((e) => e.name === word.word);
      if (entry) return { range, contents: [{ value: `\`${entry.name} : ${entry.text}\`` }, { value: entry.kind === 'var' ? 'variable of the goal at this line' : 'hypothesis of the goal at this line' }] };
      // Any other name: what the prover knows of it here (a lemma, a definition of the document, …).
      const name = qualifiedNameAt(model.getLineContent(position.lineNumber), word.startColumn, word.endColumn);
      if (!about || !/^[A-Za-z_][\w'.]*$/.test(name) || /^[A-Z_]+$/.test(name)) return null;
      return about(name).then((a) => {
        if (!a) return null;
        const where = a.module === 'document' ? 'declared in this document' : a.module ? `from ${a.module}` : '';
        return { range, contents: [{ value: `\`${a.name} : ${a.type}\`` }, { value: [a.kind, where].filter(Boolean).join(' · ') }] };
      });
    },
  });
  monaco.languages.registerCompletionItemProvider(SHELL_LANGUAGE_ID, {
    triggerCharacters: [' ', '"', '('],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const before = model.getLineContent(position.lineNumber).slice(0, word.startColumn - 1);
      const place = completionPlace(before);
      const suggestions: monaco.languages.CompletionItem[] = [];
      if (place === 'command') {
        const isabelle = source.backend() === 'isabelle';
        for (const name of COMMAND_NAMES) {
          if (!isabelle && isMinilangName(name)) continue;
          const doc = COMMAND_DOCS[name];
          suggestions.push({
            label: name, kind: monaco.languages.CompletionItemKind.Keyword, detail: doc.syntax,
            documentation: doc.summary, insertText: doc.snippet, range,
            insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
          });
        }
      } else if (place === 'names') {
        // Inside a tactic: the hypotheses in scope first, then the document's own lemmas, then SEARCH's.
        const seen = new Set<string>();
        const add = (label: string, kind: monaco.languages.CompletionItemKind, detail: string, rank: string): void => {
          if (seen.has(label)) return;
          seen.add(label);
          suggestions.push({ label, kind, detail, insertText: label, range, sortText: `${rank}${label}` });
        };
        for (const e of source.contextAt(position.lineNumber)) {
          add(e.name, e.kind === 'var' ? monaco.languages.CompletionItemKind.Variable : monaco.languages.CompletionItemKind.Reference, e.text, '0');
        }
        const lines = model.getLinesContent();
        const names = documentNames(lines, position.lineNumber);
        // The theorem being proved here is not yet a lemma to use.
        const own = source.inProof(position.lineNumber) ? names.findLast((d) => d.kind === 'theorem') : undefined;
        for (const d of names.filter((x) => x !== own).reverse()) {
          add(d.name, monaco.languages.CompletionItemKind.Function, `${d.kind} of this document (line ${d.line})`, '1');
        }
        for (const r of source.searchResults()) add(r.name, monaco.languages.CompletionItemKind.Function, `${r.type} (SEARCH)`, '2');
      }
      return { suggestions };
    },
  });
  monaco.editor.defineTheme('arbor-light', {
    base: 'vs', inherit: true,
    rules: [
      { token: 'keyword', foreground: '7a3eb1', fontStyle: 'bold' },
      { token: 'keyword.other', foreground: '7a3eb1' },
      { token: 'string', foreground: '1f6f43' },
      { token: 'string.quote', foreground: '1f6f43' },
      { token: 'variable.abbrev', foreground: 'b3541e' },
      { token: 'number.channel', foreground: '888888' },
      { token: 'comment', foreground: '8a8f98', fontStyle: 'italic' },
    ],
    colors: {},
  });
}

/** A character of a Coq name (unicode letters and digits, primes, dots). */
const NAME_CHAR = /[\p{L}\p{N}_'.]/u;

/** The dotted name around a word (`Nat.add_comm` when hovering `add_comm`). */
function qualifiedNameAt(line: string, start: number, end: number): string {
  let from = start - 1;
  let to = end - 1;
  while (from > 0 && NAME_CHAR.test(line[from - 1] ?? '')) from--;
  while (to < line.length && NAME_CHAR.test(line[to] ?? '')) to++;
  return line.slice(from, to).replace(/^\.+|\.+$/g, '');
}
