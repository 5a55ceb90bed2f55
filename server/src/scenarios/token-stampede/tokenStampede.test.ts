// Every token-stampede variant against the real Redis, PostgreSQL and a real HTTP token
// provider, at its defaults and at other parameters. Refreshes and API calls are
// choreographed (barriers between them, arrival in turn), so each number is the same on
// every run; the numbers are the provider's own counters.
// The other parameters are in tokenStampede.params.test.ts (`npm run test:full`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';
import { expectedOf } from '../registry.js';
import { resolveParams, type RunEvent } from '@racelab/shared';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(4);
});
afterAll(async () => {
  await playground.close();
});

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'token-stampede', variant, params);
const calls = (events: RunEvent[], target: string, status?: number) =>
  eventsOf(events, 'call-finished').filter((e) => e.target === target && (status === undefined || e.status === status));

describe('token-stampede at its defaults', () => {
  it('refresh-every-request: 50 refreshes, the last token issued is the only one that works', async () => {
    const { metrics, verdict, events } = await run('refresh-every-request');
    expect(metrics).toEqual({ refreshCalls: 50, requestsOk: 1, requestsFailed: 49 });
    expect(verdict).toBe('fail');
    expect(calls(events, 'POST /token')).toHaveLength(50);
    expect(calls(events, 'GET /api', 401)).toHaveLength(49);
    expect(new Set(eventsOf(events, 'worker-started').map((e) => e.workerId))).toEqual(new Set(['server-1', 'server-2', 'server-3']));
  });

  it('lock-only: still one refresh per request, now one after another', async () => {
    const { metrics, verdict, events } = await run('lock-only');
    expect(metrics).toEqual({ refreshCalls: 50, requestsOk: 1, requestsFailed: 49 });
    expect(verdict).toBe('fail');
    const acquired = eventsOf(events, 'lease-acquired');
    expect(acquired).toHaveLength(50);
    expect(acquired.every((e) => e.key === 'token:lock')).toBe(true);
    // Serialised: the refreshes take at least 50 × the provider's 100 ms latency in all.
    const released = eventsOf(events, 'lease-released');
    const spanMs = Math.max(...released.map((e) => e.atMs)) - Math.min(...acquired.map((e) => e.atMs));
    expect(spanMs).toBeGreaterThanOrEqual(50 * 100);
  });

  it("single-flight-local: one refresh per server; only the last server's requests succeed", async () => {
    const { metrics, verdict, events } = await run('single-flight-local');
    // server-3 serves requests 3, 6, …, 48 and refreshes last (arrival in turn).
    expect(metrics).toEqual({ refreshCalls: 3, requestsOk: 16, requestsFailed: 34 });
    expect(verdict).toBe('fail');
    for (const server of ['server-1', 'server-2', 'server-3']) {
      expect(
        calls(
          events.filter((e) => e.workerId === server),
          'POST /token',
        ),
      ).toHaveLength(1);
    }
    expect(
      calls(
        events.filter((e) => e.workerId === 'server-3'),
        'GET /api',
        200,
      ),
    ).toHaveLength(16);
    expect(
      calls(
        events.filter((e) => e.workerId !== 'server-3'),
        'GET /api',
        200,
      ),
    ).toHaveLength(0);
  });

  it("single-flight-lock-cache: one refresh, the others read the winner's token from Redis", async () => {
    const { metrics, verdict, events } = await run('single-flight-lock-cache');
    expect(metrics).toEqual({ refreshCalls: 1, requestsOk: 50, requestsFailed: 0 });
    expect(verdict).toBe('pass');
    // One server refreshes and publishes. A server that read the cache just before the
    // publish may still take the lock after the release; it finds the token then and
    // refreshes nothing (the provider's count above), so only the count of publishes is fixed.
    expect(eventsOf(events, 'write-accepted').filter((e) => e.target === 'token:cache')).toHaveLength(1);
    expect(eventsOf(events, 'lease-acquired').length).toBeGreaterThanOrEqual(1);
    const cached = eventsOf(events, 'key-observed').find((e) => e.key === 'token:cache' && e.value !== null)!;
    // In Redis with an expiry: 90% of the 60 s life.
    expect(cached.pttlMs).toBeGreaterThan(50_000);
    expect(cached.pttlMs).toBeLessThanOrEqual(54_000);
    expect(new Set(eventsOf(events, 'value-read').map((e) => e.value))).toEqual(new Set([cached.value]));
  });

  it('proactive-refresh: refreshes ahead of expiry, so no request ever meets an expired token', async () => {
    const { metrics, verdict, events } = await run('proactive-refresh');
    // 2 s tokens, waves at 0, 1.4, 2.8 and 4.2 s; refreshes at about 0, 1.7 and 3.4 s.
    expect(metrics).toEqual({ refreshCalls: 3, requestsOk: 50, requestsFailed: 0 });
    expect(verdict).toBe('pass');
    const tokens = eventsOf(events, 'row-observed')
      .filter((e) => e.target === 'provider token')
      .map((e) => e.value);
    expect(tokens.slice(1).some((v) => v?.includes('expired'))).toBe(false);
    // (A request that read a token just before its refresh revoked it gets a 401 and is
    // retried with the new one: a busy machine may make that happen, and it is no failure.)
  });
});

describe("single-flight-local's expected verdict, from the parameters alone", () => {
  const expectedAt = (set: Record<string, unknown>) => {
    const manifest = playground.catalog.manifests.find((m) => m.id === 'token-stampede')!;
    const variant = playground.catalog.scenarios.get('token-stampede')!.variants.find((v) => v.id === 'single-flight-local')!;
    const resolved = resolveParams(manifest, variant.id, set);
    if (!resolved.ok) throw new Error(resolved.error);
    return expectedOf(variant, resolved.params).verdict;
  };

  it('passes only where no request uses a token another server has revoked, within the refresh budget', () => {
    // Two servers in a wave: one of their tokens is revoked before it is used.
    expect(expectedAt({})).toBe('fail');
    expect(expectedAt({ requests: 4, servers: 2, waves: 2, waveGapMs: 100 })).toBe('fail');
    // One server, or one request: nobody else refreshes.
    expect(expectedAt({ servers: 1 })).toBe('pass');
    expect(expectedAt({ requests: 1, waves: 4 })).toBe('pass');
    // One request a wave on servers of their own: each refresh revokes a used token.
    expect(expectedAt({ requests: 2, servers: 2, waves: 2, waveGapMs: 100 })).toBe('pass');
    expect(expectedAt({ requests: 3, servers: 3, waves: 4, waveGapMs: 30_000 })).toBe('pass');
    // The same with no time between the waves: two refreshes, a budget of one.
    expect(expectedAt({ requests: 2, servers: 2, waves: 2, waveGapMs: 0 })).toBe('fail');
    // Three refreshes 100 ms apart, a budget of two. The budget counts a pause of server-2 of
    // 80% of the token's life or more (this variant never takes it): 900 ms makes it three.
    expect(expectedAt({ requests: 3, servers: 3, waves: 3, waveGapMs: 100, tokenTtlMs: 1000 })).toBe('fail');
    expect(expectedAt({ requests: 3, servers: 3, waves: 3, waveGapMs: 100, tokenTtlMs: 1000, pauseMs: 900 })).toBe('pass');
    // Server-1 back in a later wave: it reuses its revoked token while it has more than the
    // margin of its use left (1 s tokens: 900 ms), and refreshes after.
    const back = { requests: 3, servers: 2, waves: 3, tokenTtlMs: 1000, providerLatencyMs: 0 };
    expect(expectedAt({ ...back, waveGapMs: 100 })).toBe('fail');
    expect(expectedAt({ ...back, waveGapMs: 380 })).toBe('fail');
    expect(expectedAt({ ...back, waveGapMs: 420 })).toBe('pass');
    expect(expectedAt({ ...back, waveGapMs: 450 })).toBe('pass');
    // The provider's latency delays each token, and so the end of its use: 200 ms left at 900.
    expect(expectedAt({ ...back, waveGapMs: 450, providerLatencyMs: 200 })).toBe('fail');
    // Together or in turn: one request a wave arrives alone either way.
    expect(expectedAt({ requests: 2, servers: 2, waves: 2, waveGapMs: 100, arrival: 'together' })).toBe('pass');
  });
});

describe('the verdict needs no word from a server', () => {
  // The first server to have all its answers is killed at once, before it says anything
  // more: the figures are the provider's own counters, so nothing is missing.
  const killedAfterAnswers = [{ checkpoint: 'requests-answered', target: 'first', action: 'kill' as const }];

  it('single-flight-lock-cache: one refresh and 50 answers, though a server died right after its own', async () => {
    const { metrics, verdict, events } = await play(playground, 'token-stampede', 'single-flight-lock-cache', {}, killedAfterAnswers);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(metrics).toEqual({ refreshCalls: 1, requestsOk: 50, requestsFailed: 0 });
    expect(verdict).toBe('pass');
  });

  it('refresh-every-request: a server killed the same way, and the stampede is counted whole', async () => {
    const { metrics, verdict, events } = await play(playground, 'token-stampede', 'refresh-every-request', {}, killedAfterAnswers);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(metrics).toEqual({ refreshCalls: 50, requestsOk: 1, requestsFailed: 49 });
    expect(verdict).toBe('fail');
  });
});
