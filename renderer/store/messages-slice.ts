import type { StateCreator } from 'zustand';
import type { ArborState } from './store.ts';

export interface Message {
  id: number;
  time: number;
  level: 'info' | 'error';
  text: string;
}

export interface MessagesSlice {
  messages: { list: Message[]; nextId: number };
  addMessage(level: Message['level'], text: string): void;
  clearMessages(): void;
}

export const createMessagesSlice: StateCreator<ArborState, [], [], MessagesSlice> = (set) => ({
  messages: { list: [], nextId: 1 },
  addMessage: (level, text) => set((s) => ({
    messages: { list: [...s.messages.list.slice(-499), { id: s.messages.nextId, time: Date.now(), level, text }], nextId: s.messages.nextId + 1 },
  })),
  clearMessages: () => set((s) => ({ messages: { ...s.messages, list: [] } })),
});

export const selectMessages = (s: ArborState): Message[] => s.messages.list;
