import { setTimeout as sleep } from 'node:timers/promises';
import { errorReason } from './errorReason.js';

/** Retries `probe(url)` every 500 ms until it succeeds; rejects with the last reason after `timeoutMs`. */
export async function waitUntilReachable(probe: (url: string) => Promise<void>, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe(url);
      return;
    } catch (err) {
      if (Date.now() >= deadline) throw new Error(`not reachable within ${timeoutMs} ms (${errorReason(err)})`);
      await sleep(500);
    }
  }
}
