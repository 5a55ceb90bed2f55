// The delay relays of this process's labs (delayRelay.ts), run in a process of their own:
// forked at the first one asked for, shared by every run after it, and gone with this
// process. Every chunk a worker sends a lab node through its relay, slowed or not, would
// otherwise wait for this process's event loop, and a server busy with other runs (or a
// test runner with several at once) made a majority's five round trips outlast a 1 s lease:
// a verdict that hung on the machine's load. The relay host does nothing else, and answers
// at once. Slow, restore and close resolve once the relay has done it.
import { fork, type ChildProcess } from 'node:child_process';
import { builtScript } from '../services/builtScript.js';
import type { DelayRelay, Slowdown } from './delayRelay.js';
import type { RelayHostReply, RelayHostRequest } from './relayHostProtocol.js';

const ENTRY = builtScript(new URL('./relayHostMain.js', import.meta.url));

type Ask = (request: DistributiveOmit<RelayHostRequest, 'id'>) => Promise<RelayHostReply & { ok: true }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

let host: Promise<Ask> | null = null;

/** Forks the relay host; its channel holds this process open only while an answer is awaited. */
function startHost(): Promise<Ask> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(ENTRY, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const waiting = new Map<number, { resolve: (reply: RelayHostReply & { ok: true }) => void; reject: (error: Error) => void }>();
    let next = 1;
    const hold = (): void => {
      if (waiting.size > 0) child.channel?.ref();
      else child.channel?.unref();
    };
    const kill = (): void => void child.kill('SIGKILL');
    process.on('exit', kill);
    child.unref();
    child.on('error', (error) => reject(error));
    child.on('exit', (code, signal) => {
      process.off('exit', kill);
      host = null; // the next relay asked for forks a new host
      const gone = new Error(`the relay host exited (${signal ?? `code ${code}`})`);
      reject(gone);
      for (const w of waiting.values()) w.reject(gone);
      waiting.clear();
    });
    child.on('message', (reply: RelayHostReply) => {
      if (reply.id === 0) {
        hold();
        resolve((request) => {
          const id = next++;
          return new Promise((ok, fail) => {
            waiting.set(id, { resolve: ok, reject: fail });
            hold();
            child.send({ ...request, id });
          });
        });
        return;
      }
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      hold();
      if (reply.ok) w.resolve(reply);
      else w.reject(new Error(`the relay host: ${reply.error}`));
    });
  });
}

/** A delay relay as delayRelay.ts makes one, listening on `listenHost` and passing to `target`, in the relay host. */
export async function startHostedDelayRelay(listenHost: string, target: { host: string; port: number }): Promise<HostedDelayRelay> {
  host ??= startHost().catch((error: unknown) => {
    host = null;
    throw error;
  });
  const ask = await host;
  const { relayId, port } = await ask({ op: 'start', listenHost, target });
  return {
    host: listenHost,
    port: port!,
    async slow(slowdown: Slowdown) {
      await ask({ op: 'slow', relayId: relayId!, slowdown });
    },
    async restore() {
      await ask({ op: 'restore', relayId: relayId! });
    },
    async close() {
      await ask({ op: 'close', relayId: relayId! }).catch(() => undefined); // a host that is gone closed it
    },
  };
}

/** A delay relay in the relay host: the same, its slow and restore done once they resolve. */
export interface HostedDelayRelay extends Omit<DelayRelay, 'slow' | 'restore'> {
  slow(slowdown: Slowdown): Promise<void>;
  restore(): Promise<void>;
}
