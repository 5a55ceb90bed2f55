// Sending to a page without buffering without bound (the ws way: look at bufferedAmount):
// a page that does not read is cut off instead.
import type { ServerMessage } from '@racelab/shared';

/** The sending side of a socket, as far as the bound on buffering needs it. */
export interface BoundedSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  terminate(): void;
}

/**
 * Sends unless the peer is too far behind: a client that does not read is cut off once
 * `maxBufferedBytes` wait for it, so no client is ever buffered without bound. Returns
 * whether the message was sent.
 */
export function sendBounded(socket: BoundedSocket, message: ServerMessage, maxBufferedBytes: number): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > maxBufferedBytes) {
    socket.terminate();
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}
