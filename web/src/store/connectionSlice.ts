import type { ConnectionSlice, SliceCreator } from './types.js';

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set) => ({
  connection: 'connecting',
  transport: null,
  serverError: null,
  setConnection: (connection) => set({ connection }),
  setTransport: (transport) => set({ transport }),
  setServerError: (serverError) => set({ serverError }),
});
