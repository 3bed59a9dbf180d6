import type { StateCreator } from 'zustand';
import type { AppInfo, ChannelInfo } from '../../shared/api/api-contract.ts';
import type { ArborState } from './store.ts';

export interface ChannelsSlice {
  host: { channels: ChannelInfo[]; info: AppInfo | null; connected: boolean };
  setChannels(channels: ChannelInfo[]): void;
  setAppInfo(info: AppInfo): void;
  setConnected(connected: boolean): void;
}

export const createChannelsSlice: StateCreator<ArborState, [], [], ChannelsSlice> = (set) => ({
  host: { channels: [], info: null, connected: false },
  setChannels: (channels) => set((s) => ({ host: { ...s.host, channels } })),
  setAppInfo: (info) => set((s) => ({ host: { ...s.host, info } })),
  setConnected: (connected) => set((s) => ({ host: { ...s.host, connected } })),
});

export const selectChannels = (s: ArborState): ChannelInfo[] => s.host.channels;
export const selectAppInfo = (s: ArborState): AppInfo | null => s.host.info;
export const selectChannelBusy = (channel: number | undefined) => (s: ArborState): boolean =>
  channel !== undefined && (s.host.channels.find((c) => c.id === channel)?.busy ?? false);
