import type { StateCreator } from 'zustand';
import type { ArborState } from './store.ts';

export interface Message {
  id: number;
  time: number;
  level: 'info' | 'error';
  text: string;
  /** The document it is about (absent: the workbench as a whole). */
  uri?: string;
}

export interface MessagesSlice {
  messages: { list: Message[]; nextId: number };
  /** About `uri`, or by default about the active document (most messages are: a step, a search, a save). */
  addMessage(level: Message['level'], text: string, uri?: string | null): void;
  clearMessages(): void;
}

export const createMessagesSlice: StateCreator<ArborState, [], [], MessagesSlice> = (set) => ({
  messages: { list: [], nextId: 1 },
  addMessage: (level, text, uri) => set((s) => {
    const about = uri === undefined ? s.documents.activeUri : uri;
    const message: Message = { id: s.messages.nextId, time: Date.now(), level, text, ...(about ? { uri: about } : {}) };
    return { messages: { list: [...s.messages.list.slice(-499), message], nextId: s.messages.nextId + 1 } };
  }),
  clearMessages: () => set((s) => ({ messages: { ...s.messages, list: [] } })),
});

export const selectMessages = (s: ArborState): Message[] => s.messages.list;

/** The active document's messages and the workbench's own (Messages groups them by document). */
let shownMemo: { list: Message[]; uri: string | null; shown: Message[] } | undefined;
export const selectActiveDocumentMessages = (s: ArborState): Message[] => {
  const uri = s.documents.activeUri;
  if (shownMemo?.list !== s.messages.list || shownMemo.uri !== uri) {
    shownMemo = { list: s.messages.list, uri, shown: s.messages.list.filter((m) => m.uri === undefined || m.uri === uri) };
  }
  return shownMemo.shown;
};
