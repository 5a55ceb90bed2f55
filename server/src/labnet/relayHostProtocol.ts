// What the server and its relay host (relayHost.ts, relayHostMain.ts) say over IPC.
import type { Slowdown } from './delayRelay.js';

export type RelayHostRequest = { id: number } & (
  | { op: 'start'; listenHost: string; target: { host: string; port: number } }
  | { op: 'slow'; relayId: number; slowdown: Slowdown }
  | { op: 'restore'; relayId: number }
  | { op: 'close'; relayId: number }
);

/** The answer to request `id` (0: the host is ready); `port` and `relayId` answer a start. */
export type RelayHostReply = { id: number } & ({ ok: true; relayId?: number; port?: number } | { ok: false; error: string });
