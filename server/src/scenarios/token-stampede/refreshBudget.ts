// How many refresh calls a run may make, and when refreshing for every request stays
// within it: the parameters alone say so, for the verdict and for the expected verdict.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';
import { arrivalSpanMs } from './requestPlan.js';

/** How long a client uses a token of `lifeMs`: 90 % of its life, then it refreshes. */
export const tokenUseMs = (lifeMs: number): number => Math.round(0.9 * lifeMs);

/**
 * Most refresh calls a correct client makes at a run's parameters: one to start, one per 80% of
 * a token's life while requests are answered. They arrive over the waves' span; server-2,
 * paused (pauseMs) where it found no token, answers its requests when it wakes. A pause of 80%
 * of the token's life or more counts: the token cached before it may no longer be one to use
 * (a client uses a token for 90% of its life), and a second refresh is the right one. A shorter
 * pause wakes to the cached token still good.
 */
export function refreshBudget(params: Params): number {
  const renewEveryMs = 0.8 * intParam(params, 'tokenTtlMs');
  const pauseMs = intParam(params, 'pauseMs');
  const arrivingMs = arrivalSpanMs(intParam(params, 'waves'), intParam(params, 'waveGapMs'));
  return 1 + Math.ceil(Math.max(arrivingMs, pauseMs >= renewEveryMs ? pauseMs : 0) / renewEveryMs);
}

/**
 * Why one refresh per request still passes at these parameters, or null. It passes when no
 * wave has two requests (a later refresh in the same wave revokes the token of a request
 * that has not called yet) and the requests fit the refresh budget.
 */
export function refreshPerRequestPasses(params: Params): string | null {
  const requests = intParam(params, 'requests');
  const budget = refreshBudget(params);
  if (requests > intParam(params, 'waves') || requests > budget) return null;
  return requests === 1
    ? 'one request: its refresh revokes no token anyone still holds'
    : `${requests} requests, one a wave, within ${budget} refresh calls: each refresh revokes a token already used`;
}
