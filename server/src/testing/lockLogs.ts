// Run logs of a lock key, written by hand for the tests of what is read from them
// (scorecard/lockHistory.ts): the server's observations of the key and the workers' reports
// of their grants and releases, numbered in the order given.
import type { RunEvent } from '@racelab/shared';

type Gone = 'deleted' | 'expired';

/** One line of a log: what the server saw the key hold, or what a worker reported. */
export type LogLine = { seen: string | null; gone?: Gone } | { acquired: string } | { released: string; deleted: number };

/** The log of `lines` for the key `key`, each event numbered and stamped a millisecond after the last. */
export function lockLog(key: string, lines: LogLine[]): RunEvent[] {
  return lines.map((line, seq): RunEvent => {
    const stamp = { seq, atMs: seq };
    if ('seen' in line) {
      const gone = line.gone ? { gone: line.gone } : {};
      return { ...stamp, workerId: null, type: 'key-observed', key, value: line.seen, pttlMs: line.seen === null ? -2 : 1000, ...gone };
    }
    if ('acquired' in line)
      return { ...stamp, workerId: line.acquired, type: 'lease-acquired', key, ttlMs: 1000, fromMs: seq, token: 'locked' };
    return { ...stamp, workerId: line.released, type: 'lease-released', key, deleted: line.deleted };
  });
}

/**
 * The naive SET NX + DEL lock under `racelab check`'s stall (one value for every holder):
 * worker-1's lease expires while it is stopped, worker-2 takes the lock, worker-1 wakes and
 * its DEL removes worker-2's; worker-3 gets in, and worker-2's DEL removes worker-3's.
 * `told`: Redis's notifications say how each key went (else only samples saw it go).
 */
export function naiveStallLog(key: string, told = true): RunEvent[] {
  const went = (gone: Gone): LogLine => (told ? { seen: null, gone } : { seen: null });
  return lockLog(key, [
    { acquired: 'worker-1' },
    { seen: 'locked' },
    went('expired'),
    { seen: 'locked' },
    { acquired: 'worker-2' },
    // worker-1's report of its release reaches the server before Redis's word on the DEL.
    { released: 'worker-1', deleted: 1 },
    went('deleted'),
    { acquired: 'worker-3' },
    { seen: 'locked' },
    went('deleted'),
    { released: 'worker-2', deleted: 1 },
    { released: 'worker-3', deleted: 0 },
  ]);
}

/** A lock with a token per grant and a compare-and-delete release under the same stall: worker-1's release removes nothing. */
export function tokenStallLog(key: string): RunEvent[] {
  return lockLog(key, [
    { acquired: 'worker-1' },
    { seen: 'token-1' },
    { seen: null, gone: 'expired' },
    { acquired: 'worker-2' },
    { seen: 'token-2' },
    { released: 'worker-1', deleted: 0 },
    // A sample saw the key gone before the notification said how.
    { seen: null },
    { seen: null, gone: 'deleted' },
    { released: 'worker-2', deleted: 1 },
  ]);
}
