// The server's own record of redlock's grants. It watches the lock key on each of the five
// nodes from its own connections (the key observer's sampling, with each node's TIME of
// the read), and a grant is the moment a majority of the nodes hold one worker's token.
// Each grant goes into the run's grants table (../kit/fencedLedger.ts) as it is seen, and
// a marker in the run's keys tells the worker it is on record: the worker waits for it
// before it acts, so its writes come after its grant's record. The nodes' TIME and
// PostgreSQL's clock_timestamp() read the same host wall clock.
import type { Redis } from 'ioredis';
import { KeyObserver, type KeyObservation } from '../../runs/keyObserver.js';
import { insertGrant } from '../kit/fencedLedger.js';
import type { RunStores } from '../types.js';
import { LOCK_KEY } from './keys.js';

/** In the run's keys: set once the grant of the lock to this token is on record. */
export const grantSeenKey = (token: string): string => `grant-seen:${token}`;

export interface MajorityGrants {
  /** Takes a last look at every node and waits until every grant seen is on record; throws what went wrong meanwhile. */
  stop(): Promise<void>;
}

/** Starts watching the lock on the nodes behind `clients` (the server's own connections). */
export function watchMajorityGrants(stores: RunStores, clients: Redis[]): MajorityGrants {
  const quorum = Math.floor(clients.length / 2) + 1;
  const held: Array<string | null> = clients.map(() => null);
  const nodesHolding = (token: string | null): number => (token === null ? 0 : held.filter((v) => v === token).length);
  let holder: string | null = null; // the token that holds a majority now, as last seen
  let recorded: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  const fail = (error: unknown): void => {
    failure ??= error instanceof Error ? error : new Error(String(error));
  };

  const changed = (node: number, o: KeyObservation): void => {
    held[node] = o.value;
    if (nodesHolding(holder) < quorum) holder = null;
    if (o.value === null || o.value === holder || o.redisTimeUs === undefined || nodesHolding(o.value) < quorum) return;
    const [token, atUs] = [o.value, o.redisTimeUs];
    holder = token;
    recorded = recorded
      .then(async () => {
        await insertGrant(stores, token, atUs);
        await stores.redis.set(stores.key(grantSeenKey(token)), '1');
      })
      .catch(fail);
  };
  const observers = clients.map((client, i) => new KeyObserver(client, '', [LOCK_KEY], (o) => changed(i, o), fail));
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        await Promise.all(observers.map((o) => o.stop()));
        await recorded;
      })();
      return stopped.then(() => {
        if (failure) throw new Error(`could not watch the lock on the nodes: ${failure.message}`);
      });
    },
  };
}
