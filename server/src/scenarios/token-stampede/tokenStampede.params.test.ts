// Every token-stampede variant against the real Redis, PostgreSQL and a real HTTP token
// provider, at its defaults and at other parameters. Refreshes and API calls are
// choreographed (barriers between them, arrival in turn), so each number is the same on
// every run; the numbers are the provider's own counters.
// This file holds the parameters; tokenStampede.test.ts the defaults. `npm run test:full` runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play, type Played } from '../../testing/testPlayground.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(4);
});
afterAll(async () => {
  await playground.close();
});

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'token-stampede', variant, params);
const expected = (played: Played) => (played.outcome.status === 'finished' ? played.outcome.expected.verdict : undefined);

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
    // 3 s tokens, shared for 2.7 s; waves at 0, 4 and 8 s each find the cache empty. A wave's
    // requests all arrive inside the 2.7 s on a machine busy enough to spread one wave over a
    // second (with 1 s tokens, a loaded machine's straggler found the token gone: 4 refreshes).
    const { metrics, verdict } = await run('single-flight-lock-cache', { tokenTtlMs: 3000, waves: 3, waveGapMs: 4000 });
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
