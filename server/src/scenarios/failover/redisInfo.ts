// Small helpers to read what a Redis node says about itself, and to wait for it.
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';

/** `INFO replication` as name → value, e.g. role, master_link_status, slave0. */
export async function replicationInfo(client: Redis): Promise<Record<string, string>> {
  const text = await client.info('replication');
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

const POLL_EVERY_MS = 20;

/**
 * Resolves once `check` answers true; a check that throws counts as "not yet". Rejects
 * after `timeoutMs`, or at once when `signal` is aborted.
 */
export async function waitUntil(timeoutMs: number, what: string, check: () => Promise<boolean>, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    if (signal?.aborted) throw new Error(`stopped waiting for ${what}`);
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms${lastError ? ` (last error: ${lastError})` : ''}`);
    }
    await sleep(POLL_EVERY_MS);
  }
}
