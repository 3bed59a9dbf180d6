import type { StateCreator } from 'zustand';
import type { AppInfo, ChannelInfo } from '../../shared/api/api-contract.ts';
import type { ArborState } from './store.ts';

export interface ChannelsSlice {
  host: { channels: ChannelInfo[]; info: AppInfo | null; connected: boolean };
  setChannels(channels: ChannelInfo[]): void;
  /** A request went to `channel`: it is busy (or queued) until the `channels` event after its answer. */
  markBusy(channel: number): void;
  setAppInfo(info: AppInfo): void;
  setConnected(connected: boolean): void;
}

export const createChannelsSlice: StateCreator<ArborState, [], [], ChannelsSlice> = (set) => ({
  host: { channels: [], info: null, connected: false },
  setChannels: (channels) => set((s) => ({ host: { ...s.host, channels } })),
  markBusy: (channel) => set((s) => (s.host.channels.some((c) => c.id === channel && !c.busy)
    ? { host: { ...s.host, channels: s.host.channels.map((c) => (c.id === channel ? { ...c, busy: true } : c)) } }
    : s)),
  setAppInfo: (info) => set((s) => ({ host: { ...s.host, info } })),
  setConnected: (connected) => set((s) => ({ host: { ...s.host, connected } })),
});

export const selectChannels = (s: ArborState): ChannelInfo[] => s.host.channels;
export const selectAppInfo = (s: ArborState): AppInfo | null => s.host.info;
export const selectChannelBusy = (channel: number | undefined) => (s: ArborState): boolean =>
  channel !== undefined && (s.host.channels.find((c) => c.id === channel)?.busy ?? false);
