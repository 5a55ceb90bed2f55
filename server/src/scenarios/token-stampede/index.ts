// token-stampede: R requests over S server processes find the access token expired at
// once. The provider (a real HTTP service of the run) revokes the previous token on every
// refresh, so each needless refresh breaks the requests holding the token before it.
import { choiceSpec } from '../kit/choiceParam.js';
import { intParam, defineScenario } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { ProviderClient } from './providerClient.js';
import { refreshBudget } from './refreshBudget.js';
import { startTokenProvider, type TokenProvider } from './tokenProvider.js';
import { CACHE_KEY, FRESH_KEY, LOCK_KEY, tokenService, type TokenService } from './tokenService.js';
import proactiveRefreshNoRecheck from './mutants/proactiveRefreshNoRecheck.js';
import singleFlightLockCacheNoRecheck from './mutants/singleFlightLockCacheNoRecheck.js';
import lockOnly from './variants/lockOnly.js';
import proactiveRefresh from './variants/proactiveRefresh.js';
import refreshEveryRequest from './variants/refreshEveryRequest.js';
import singleFlightLocal from './variants/singleFlightLocal.js';
import singleFlightLockCache from './variants/singleFlightLockCache.js';
import { EXERCISE } from './exercise.js';

export default defineScenario<TokenService, TokenProvider>({
  id: 'token-stampede',
  title: 'Token refresh stampede',
  summary: 'Many requests over several server processes find the access token expired at once; every refresh revokes the token before it.',
  source: import.meta.url,
  teachingOrder: 2,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'requests',
      label: 'Requests',
      help: 'Requests that need the token, spread evenly over the servers.',
      min: 1,
      max: 5000,
      default: 50,
    },
    {
      kind: 'int',
      name: 'servers',
      label: 'Servers',
      help: 'Processes of the service (server-1 … server-S).',
      min: 1,
      max: 16,
      default: 3,
    },
    {
      kind: 'int',
      name: 'providerLatencyMs',
      label: 'Provider latency',
      unit: 'ms',
      help: 'How long the provider takes to issue a token.',
      min: 0,
      max: 5000,
      default: 100,
    },
    {
      kind: 'int',
      name: 'tokenTtlMs',
      label: 'Token lifetime',
      unit: 'ms',
      help: 'How long an issued token is valid.',
      min: 1000,
      max: 600_000,
      default: 60_000,
    },
    choiceSpec('arrival', 'Arrival', {
      together: "every server's requests arrive at once.",
      'in-turn': "a server's requests arrive once the server before it has its tokens (so its refresh lands after theirs).",
    }),
    {
      kind: 'int',
      name: 'waves',
      label: 'Waves',
      help: 'The requests arrive in this many waves, one after another.',
      min: 1,
      max: 20,
      default: 1,
    },
    {
      kind: 'int',
      name: 'waveGapMs',
      label: 'Wave gap',
      unit: 'ms',
      help: "Time from one wave's arrival to the next.",
      min: 0,
      max: 60_000,
      default: 500,
    },
    {
      kind: 'int',
      name: 'pauseMs',
      label: 'Pause',
      unit: 'ms',
      help: 'server-2 is stopped (SIGSTOP) this long, once, between finding no token in Redis and trying the refresh lock: a GC pause at the worst moment.',
      min: 0,
      max: 10_000,
      default: 0,
    },
  ],
  metrics: [
    { name: 'refreshCalls', label: 'Refresh calls', source: 'provider: its own count of POST /token calls, counted on arrival' },
    {
      name: 'requestsOk',
      label: 'Requests ok',
      source: 'provider: requests (by request id) whose last API answer was 200; a request never sent is not ok',
    },
    { name: 'requestsFailed', label: 'Requests failed (401)', source: 'provider: requests (by request id) whose last API answer was 401' },
  ],
  variants: [refreshEveryRequest, lockOnly, singleFlightLocal, singleFlightLockCache, proactiveRefresh],
  mutants: [singleFlightLockCacheNoRecheck, proactiveRefreshNoRecheck],
  // More requests over more servers; two waves apart in time; and server-2 paused after
  // it found no token, until another server has refreshed, published and released the lock
  // (with a 10 s token: proactive-refresh's 2 s one would be due again 1.6 s after the first
  // refresh, and on a busy machine the paused server's requests can still be answered then).
  stabilityParams: [
    { requests: 120, servers: 4 },
    { requests: 30, servers: 2, waves: 2, waveGapMs: 1500 },
    { requests: 30, servers: 2, waves: 1, providerLatencyMs: 300, pauseMs: 1000, tokenTtlMs: 10_000 },
  ],

  notExplorable:
    'its requests (50 at the defaults) each wait at scheduling points of their own: a schedule has hundreds of decisions with dozens waiting at each, and the search over them ran out of memory (2026-12-06)',
  workers: (params) => Array.from({ length: intParam(params, 'servers') }, (_, i) => `server-${i + 1}`),
  workersOnServer: "token-stampede's token provider listens on this server's loopback",
  watchedKeys: () => [LOCK_KEY, CACHE_KEY, FRESH_KEY],
  // Lock-only refreshes one request after another: requests × latency, with room for each turn.
  deadlineMs: (params) =>
    30_000 +
    intParam(params, 'pauseMs') +
    intParam(params, 'waves') * intParam(params, 'waveGapMs') +
    intParam(params, 'requests') * (intParam(params, 'providerLatencyMs') + 100),

  async setup(_stores, params) {
    return startTokenProvider({ latencyMs: intParam(params, 'providerLatencyMs'), ttlMs: intParam(params, 'tokenTtlMs') });
  },

  // The provider's own view, sampled for the timeline's truth lanes.
  async observe(_stores, provider) {
    const counts = provider.counts();
    return {
      'Token provider': {
        'provider token': provider.currentToken(),
        'refresh calls': String(counts.refreshCalls),
        'API answers': `${counts.apiOk} ok · ${counts.api401} × 401`,
      },
    };
  },

  async measure(_stores, _params, _run, provider) {
    const { refreshCalls, requestsOk, requestsFailed } = provider.counts();
    return { refreshCalls, requestsOk, requestsFailed };
  },

  expectations(params) {
    const requests = intParam(params, 'requests');
    const max = refreshBudget(params);
    return [
      {
        id: 'few-refreshes',
        metric: 'refreshCalls',
        op: 'lte',
        value: max,
        text:
          max === 1
            ? 'the provider is asked for a new token once, for every server'
            : `at most ${max} refresh calls: one to start, then one per 80% of the token's life while requests arrive`,
      },
      { id: 'all-ok', metric: 'requestsOk', op: 'eq', value: requests, text: `all ${requests} requests get a 200 from the API` },
      { id: 'no-401', metric: 'requestsFailed', op: 'eq', value: 0, text: 'no request ends with a 401' },
    ];
  },

  async work(ctx, variant) {
    const provider = new ProviderClient(String(ctx.shared.providerUrl));
    try {
      await ctx.barrier('start'); // every server is up and holds the expired token
      await variant.run(tokenService(ctx, provider));
    } finally {
      provider.close();
    }
  },
});
