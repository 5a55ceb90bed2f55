// What a token-stampede variant works with: one process of the service (server-k), its
// requests, and the provider. The variant decides how a request gets its token; the
// harness plays the requests: they arrive in waves, each gets a token, then calls the API.
import { choiceParam, intParam, type WorkerContext } from '../types.js';
import type { ProviderClient } from './providerClient.js';
import { keptMarginMs, keptTokenStory } from './keptTokens.js';
import { tokenUseMs } from './refreshBudget.js';
import { requestPlan } from './requestPlan.js';
import { doneLatch } from '../../worker/latches.js';

/** The Redis lock around a refresh, across servers. */
export const LOCK_KEY = 'token:lock';
/** The token shared through Redis, with an expiry. */
export const CACHE_KEY = 'token:cache';
/** Proactive refresh: this key expires at 80% of the token's life, which is when to refresh. */
export const FRESH_KEY = 'token:fresh';
/** How often a waiting server looks at Redis again, in ms. */
export const POLL_MS = 20;
/** Events one server process sends at most: a 5000-request run would flood the page. */
export const EVENT_CAP = 500;

export interface Token {
  value: string;
  /** The life the provider gave it, in ms. */
  lifeMs: number;
  /** How long a server may use it from now on, in ms: 90% of its life, a margin for clocks and calls in flight. */
  useForMs: number;
  /** When a server stops using it (ms since the epoch): receipt + useForMs. */
  goodUntilMs: number;
}

/** How a variant hands tokens to its requests. */
export interface TokenClient {
  getToken(): Promise<string>;
  /**
   * The token this process keeps for its requests, if it keeps one of its own: where the
   * parameters have its server refresh in a wave, the run lets it run out first (keptTokens.ts).
   */
  kept?(): Token;
  /** After a 401: the token to retry with, once. Without it a 401 is final. */
  afterUnauthorized?(failed: string): Promise<string>;
}

export interface TokenService extends WorkerContext {
  /** The token every server holds at the start: already expired. */
  expiredToken: Token;
  /** Lease of a refresh lock, in ms: the provider's latency plus room. */
  leaseMs: number;
  /** Where a server that found no token is about to take the lock: server-2 stalls here once for pauseMs. */
  pauseBeforeLock(): Promise<void>;
  /** POST /token: the provider issues a new token and revokes the previous one. */
  refresh(): Promise<Token>;
  /** Plays this server's requests, wave by wave from the moment it is called; resolves when all have answers. */
  serve(client: TokenClient): Promise<void>;
}

/** Gives a worker context the service's operations; `emit` is capped at EVENT_CAP events. */
export function tokenService(ctx: WorkerContext, provider: ProviderClient): TokenService {
  const { params } = ctx;
  let sent = 0;
  let leftOut = 0;
  const emit: WorkerContext['emit'] = (event) => {
    if (sent < EVENT_CAP) {
      sent++;
      ctx.emit(event);
    } else leftOut++;
  };

  // The pause strikes server-2 once, the first time it goes for the lock.
  let pauseMs = ctx.workerId === ctx.workerIds[1] ? intParam(params, 'pauseMs') : 0;
  const service: TokenService = {
    ...ctx,
    emit,
    expiredToken: { value: String(ctx.shared.expiredToken), lifeMs: 0, useForMs: 0, goodUntilMs: 0 },
    leaseMs: intParam(params, 'providerLatencyMs') + 10_000,
    async pauseBeforeLock() {
      const ms = pauseMs;
      pauseMs = 0;
      if (ms > 0) await ctx.stall(ms);
    },
    async refresh() {
      const answer = await provider.refresh();
      emit({ type: 'call-finished', target: 'POST /token', status: answer.status, durationMs: answer.durationMs });
      const useForMs = tokenUseMs(answer.expiresInMs);
      return { value: answer.accessToken, lifeMs: answer.expiresInMs, useForMs, goodUntilMs: Date.now() + useForMs };
    },
    async serve(client) {
      await playWaves(ctx, emit, provider, client);
      await ctx.checkpoint('requests-answered'); // a fault here kills the server before it says anything more
      if (leftOut > 0) {
        ctx.emit({ type: 'note', text: `${leftOut} more events of ${ctx.workerId} left out: at most ${EVENT_CAP} a server are shown` });
      }
    },
  };
  return service;
}

async function playWaves(ctx: WorkerContext, emit: WorkerContext['emit'], provider: ProviderClient, client: TokenClient): Promise<void> {
  const { params, workerId, workerIds } = ctx;
  const index = workerIds.indexOf(workerId);
  const waveGapMs = intParam(params, 'waveGapMs');
  const plan = requestPlan(intParam(params, 'requests'), workerIds.length, intParam(params, 'waves'), index);
  const previous = choiceParam(params, 'arrival') === 'in-turn' ? workerIds[index - 1] : undefined;
  const story = client.kept ? keptTokenStory(params) : null;
  let keptSince = 0; // the wave this server last refreshed in, by the story
  let shown = '';

  const call = async (n: number, token: string): Promise<void> => {
    let answer = await provider.api(token, String(n));
    emit({ type: 'call-finished', target: 'GET /api', status: answer.status, durationMs: answer.durationMs });
    if (answer.status !== 401 || !client.afterUnauthorized) return;
    emit({ type: 'retry-scheduled', reason: `request ${n} got a 401: retry once with the current shared token` });
    answer = await provider.api(await client.afterUnauthorized(token), String(n));
    emit({ type: 'call-finished', target: 'GET /api', status: answer.status, durationMs: answer.durationMs });
  };

  const startMs = performance.now(); // work() called the variant right after the 'start' barrier
  for (const [wave, requests] of plan.entries()) {
    await ctx.sleep(Math.max(0, startMs + wave * waveGapMs - performance.now()));
    await ctx.barrier(`wave-${wave}`); // the wave's requests arrive on every server at once
    if (previous) {
      // Arrival in turn: this server's requests come once the server before has its tokens.
      ctx.emit({ type: 'wait-started', reason: `arrival in turn: after ${previous}` });
      await ctx.waitFor(`tokens-${wave}:${previous}`, doneLatch(previous));
      ctx.emit({ type: 'wait-finished', reason: `arrival in turn: after ${previous}` });
    }
    if (client.kept && story?.steps[wave]![index] === 'refreshes') {
      await letKeptTokenRunOut(ctx, client.kept(), keptMarginMs(workerIds.length, wave - keptSince));
      keptSince = wave;
    }
    const label = `wave ${wave + 1}: ${requests.length} request${requests.length === 1 ? '' : 's'}`;
    if (requests.length > 0) ctx.emit({ type: 'work-started', label });
    const tokens = await Promise.all(requests.map(() => client.getToken()));
    for (const token of tokens) {
      if (token !== shown) emit({ type: 'value-read', target: 'token', value: token });
      shown = token;
    }
    ctx.signal(`tokens-${wave}:${workerId}`);
    // Choreography: every request on every server holds its token before any calls the API,
    // the worst case of real timing, so what a token is worth never depends on luck.
    await ctx.barrier(`wave-${wave}:tokens`);
    await Promise.all(requests.map((n, i) => call(n, tokens[i]!)));
    if (requests.length > 0) ctx.emit({ type: 'work-finished', label });
  }
}

/**
 * Choreography: where the parameters have this server refresh, its kept token must be done
 * with, or the server would reuse it. By the parameters it is done with, or has less than
 * the margin left (keptTokens.ts); if it is still good here, let it run out.
 */
async function letKeptTokenRunOut(ctx: WorkerContext, token: Token, marginMs: number): Promise<void> {
  const leftMs = token.goodUntilMs - Date.now();
  if (leftMs <= 0) return;
  const reason = `choreography: ${ctx.workerId}'s kept token has less than ${marginMs} ms of its use left, let it run out (${Math.ceil(leftMs)} ms)`;
  ctx.emit({ type: 'wait-started', reason });
  while (Date.now() < token.goodUntilMs) await ctx.sleep(token.goodUntilMs - Date.now());
  ctx.emit({ type: 'wait-finished', reason });
}
