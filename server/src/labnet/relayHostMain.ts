// The relay host's process (relayHost.ts): it runs the delay relays its parent asks for and
// nothing else, so that what they pass waits on no one's event loop but this one. It ends
// with its parent: when the IPC channel closes (the parent exited, or was killed), every
// relay closes and the process exits.
import { startDelayRelay, type DelayRelay } from './delayRelay.js';
import type { RelayHostReply, RelayHostRequest } from './relayHostProtocol.js';

const relays = new Map<number, DelayRelay>();
let nextRelay = 1;

async function handle(request: RelayHostRequest): Promise<RelayHostReply> {
  switch (request.op) {
    case 'start': {
      const relay = await startDelayRelay(request.listenHost, request.target);
      const relayId = nextRelay++;
      relays.set(relayId, relay);
      return { id: request.id, ok: true, relayId, port: relay.port };
    }
    case 'slow':
    case 'restore':
    case 'close': {
      const relay = relays.get(request.relayId);
      if (!relay) return { id: request.id, ok: false, error: `no relay ${request.relayId}` };
      if (request.op === 'slow') relay.slow(request.slowdown);
      if (request.op === 'restore') relay.restore();
      if (request.op === 'close') {
        relays.delete(request.relayId);
        await relay.close();
      }
      return { id: request.id, ok: true };
    }
  }
}

process.on('message', (request: RelayHostRequest) => {
  handle(request).then(
    (reply) => process.send?.(reply),
    (error: unknown) => process.send?.({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => {
  void Promise.all([...relays.values()].map((relay) => relay.close())).finally(() => process.exit(0));
});
process.send?.({ id: 0, ok: true });
