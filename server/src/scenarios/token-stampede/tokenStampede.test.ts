// Every token-stampede variant against the real Redis, PostgreSQL and a real HTTP token
// provider, at its defaults and at other parameters. Refreshes and API calls are
// choreographed (barriers between them, arrival in turn), so each number is the same on
// every run; the numbers are the provider's own counters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play, type Played } from '../../testing/testPlayground.js';
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
const expected = (played: Played) => (played.outcome.status === 'finished' ? played.outcome.expected.verdict : undefined);
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

describe('token-stampede honours its parameters', () => {
  it('refresh-every-request: one refresh per request, one success per wave', async () => {
    expect((await run('refresh-every-request', { requests: 7, servers: 2 })).metrics).toEqual({
      refreshCalls: 7,
      requestsOk: 1,
      requestsFailed: 6,
    });
    const waves = await run('refresh-every-request', { requests: 30, waves: 3, waveGapMs: 100, providerLatencyMs: 0 });
    expect(waves.metrics).toEqual({ refreshCalls: 30, requestsOk: 3, requestsFailed: 27 });
  });

  it('lock-only with 8 requests on 4 servers', async () => {
    const { metrics } = await run('lock-only', { requests: 8, servers: 4, providerLatencyMs: 20 });
    expect(metrics).toEqual({ refreshCalls: 8, requestsOk: 1, requestsFailed: 7 });
  });

  it("single-flight-local: the last server's share succeeds, whatever the counts", async () => {
    expect((await run('single-flight-local', { servers: 5 })).metrics).toEqual({ refreshCalls: 5, requestsOk: 10, requestsFailed: 40 });
    // Arrival together is fine when every server has the same number of requests.
    expect((await run('single-flight-local', { servers: 2, arrival: 'together' })).metrics).toEqual({
      refreshCalls: 2,
      requestsOk: 25,
      requestsFailed: 25,
    });
    // A second wave uses the kept tokens: server-3's still works, the others' do not.
    const twice = await run('single-flight-local', { waves: 2, waveGapMs: 100 });
    expect(twice.metrics).toEqual({ refreshCalls: 3, requestsOk: 16, requestsFailed: 34 });
    // With one process there is nothing to share: single-flight is enough.
    const single = await run('single-flight-local', { servers: 1 });
    expect(single.metrics).toEqual({ refreshCalls: 1, requestsOk: 50, requestsFailed: 0 });
    expect(single.verdict).toBe('pass');
  });

  it('single-flight-local: one request a wave, each refresh revokes only a token already used', async () => {
    // Request 1 on server-1 in the first wave, request 2 on server-2 in the second: two
    // refreshes, and each request calls the API with the token just issued.
    const oneEach = await run('single-flight-local', { requests: 2, servers: 2, waves: 2, waveGapMs: 100 });
    expect(oneEach.metrics).toEqual({ refreshCalls: 2, requestsOk: 2, requestsFailed: 0 });
    expect(oneEach.verdict).toBe('pass');
    expect(expected(oneEach)).toBe('pass');
    // A third wave brings server-1 back, its kept token still good for a minute but revoked
    // by server-2's refresh: a 401.
    const back = await run('single-flight-local', { requests: 3, servers: 2, waves: 3, waveGapMs: 100 });
    expect(back.metrics).toEqual({ refreshCalls: 2, requestsOk: 2, requestsFailed: 1 });
    expect(back.verdict).toBe('fail');
    expect(expected(back)).toBe('fail');
  });

  it("single-flight-local: a server back after its kept token's use has ended refreshes, near that end as the parameters say", async () => {
    // 1 s tokens, used for 900 ms; no provider latency. Server-1 gets its token at 0 and is
    // back at 2 × the gap, after server-2's refresh has revoked it.
    const backAt = (waveGapMs: number) =>
      run('single-flight-local', { requests: 3, servers: 2, waves: 3, waveGapMs, tokenTtlMs: 1000, providerLatencyMs: 0 });
    // At 1000 ms its token is done with: it refreshes.
    const after = await backAt(500);
    expect(after.metrics).toEqual({ refreshCalls: 3, requestsOk: 3, requestsFailed: 0 });
    expect([after.verdict, expected(after)]).toEqual(['pass', 'pass']);
    // At 840 ms, 60 ms of its use left: too close to call, so the run lets it run out first.
    const near = await backAt(420);
    expect(near.metrics).toEqual({ refreshCalls: 3, requestsOk: 3, requestsFailed: 0 });
    expect([near.verdict, expected(near)]).toEqual(['pass', 'pass']);
    expect(eventsOf(near.events, 'wait-started', 'server-1').map((e) => e.reason)).toEqual([
      expect.stringMatching(/^choreography: server-1's kept token has less than 120 ms of its use left, let it run out \(\d+ ms\)$/),
    ]);
    // At 760 ms, 140 ms left: it reuses the revoked token.
    const before = await backAt(380);
    expect(before.metrics).toEqual({ refreshCalls: 2, requestsOk: 2, requestsFailed: 1 });
    expect([before.verdict, expected(before)]).toEqual(['fail', 'fail']);
    expect(eventsOf(before.events, 'wait-started', 'server-1')).toEqual([]);
  });

  it('single-flight-lock-cache: one refresh among 16 servers, in turn or together', async () => {
    expect((await run('single-flight-lock-cache', { requests: 500, servers: 16, providerLatencyMs: 300 })).metrics).toEqual({
      refreshCalls: 1,
      requestsOk: 500,
      requestsFailed: 0,
    });
    expect((await run('single-flight-lock-cache', { arrival: 'in-turn', providerLatencyMs: 0 })).metrics).toEqual({
      refreshCalls: 1,
      requestsOk: 50,
      requestsFailed: 0,
    });
  });

  it('single-flight-lock-cache refreshes once each time the shared token has expired', async () => {
    // 1 s tokens, shared for 0.9 s; waves at 0, 2.5 and 5 s each find the cache empty.
    const { metrics, verdict } = await run('single-flight-lock-cache', { tokenTtlMs: 1000, waves: 3, waveGapMs: 2500 });
    expect(metrics).toEqual({ refreshCalls: 3, requestsOk: 50, requestsFailed: 0 });
    expect(verdict).toBe('pass');
  });

  it("single-flight-lock-cache: server-2 paused past the shared token's use refreshes once more, and that is in the budget", async () => {
    // 1 s tokens, used for 0.9 s: server-2 wakes 2 s after it found no token, the cached one
    // is done with, and its refresh is the right one (the budget counts the pause: 1 + 3).
    const long = await run('single-flight-lock-cache', {
      requests: 30,
      servers: 2,
      pauseMs: 2000,
      tokenTtlMs: 1000,
      providerLatencyMs: 100,
    });
    expect(long.metrics).toEqual({ refreshCalls: 2, requestsOk: 30, requestsFailed: 0 });
    expect(long.verdict).toBe('pass');
    expect(long.events.find((e) => e.type === 'run-finished')).toMatchObject({
      expectations: expect.arrayContaining([expect.objectContaining({ id: 'few-refreshes', value: 4 })]),
    });
    // A pause under 80% of the token's life wakes to the cached token: the budget stays one.
    const short = await run('single-flight-lock-cache', { requests: 30, servers: 2, pauseMs: 700, tokenTtlMs: 1000 });
    expect(short.metrics).toEqual({ refreshCalls: 1, requestsOk: 30, requestsFailed: 0 });
    expect(short.events.find((e) => e.type === 'run-finished')).toMatchObject({
      expectations: expect.arrayContaining([expect.objectContaining({ id: 'few-refreshes', value: 1 })]),
    });
  });

  it('single-flight-lock-cache at the benchmark size: 5000 requests over 16 servers, one refresh', async () => {
    const { metrics, verdict } = await run('single-flight-lock-cache', { requests: 5000, servers: 16 });
    expect(metrics).toEqual({ refreshCalls: 1, requestsOk: 5000, requestsFailed: 0 });
    expect(verdict).toBe('pass');
  });

  it('proactive-refresh keeps its schedule at other parameters', async () => {
    // 3 s tokens: refreshes at about 0 and 2.45 s, while waves arrive at 0, 2 and 4 s.
    const { metrics, verdict } = await run('proactive-refresh', {
      requests: 200,
      servers: 5,
      tokenTtlMs: 3000,
      providerLatencyMs: 50,
      waves: 3,
      waveGapMs: 2000,
    });
    expect(metrics).toEqual({ refreshCalls: 2, requestsOk: 200, requestsFailed: 0 });
    expect(verdict).toBe('pass');
    expect((await run('proactive-refresh', { waves: 1, servers: 4 })).metrics).toEqual({
      refreshCalls: 1,
      requestsOk: 50,
      requestsFailed: 0,
    });
  });

  it("caps each server's events on large runs and says how many were left out", async () => {
    const { metrics, events } = await run('refresh-every-request', { requests: 2000, servers: 2, providerLatencyMs: 0 });
    expect(metrics).toEqual({ refreshCalls: 2000, requestsOk: 1, requestsFailed: 1999 });
    const notes = eventsOf(events, 'note');
    expect(notes.map((n) => n.workerId).sort()).toEqual(['server-1', 'server-2']);
    expect(notes[0]!.text).toMatch(/^\d+ more events of server-\d left out/);
    expect(events.filter((e) => e.workerId === 'server-1').length).toBeLessThan(520);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = playground.prepare({ scenario: 'token-stampede', variant: 'lock-only', params: { requests: 5001 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'requests' must be an integer from 1 to 5000, got 5001" });
  });

  it('leaves no keys behind', async () => {
    const { run: finished } = await run('single-flight-lock-cache', { requests: 5 });
    expect(await playground.redis.keys(`racelab:${finished.id}:*`)).toEqual([]);
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
