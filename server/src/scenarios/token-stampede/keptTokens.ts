// single-flight-local keeps one token per server process and uses it for 90% of its life.
// Whether a server reuses it or refreshes in a wave, and so which requests get a 401,
// follows from the parameters: this plays the run on paper, for the expected verdict, and
// the run is held to the same story (tokenService.ts lets a kept token run out where the
// story has its server refresh). The paper run has no overhead: a wave arrives at its time
// or when the wave before has its tokens, and a refresh takes the provider's latency.
import type { Params } from '@racelab/shared';
import { choiceParam, intParam } from '../types.js';
import { refreshBudget, tokenUseMs } from './refreshBudget.js';
import { requestPlan } from './requestPlan.js';

/**
 * A kept token with less than this much of its use left when its server needs it is let run
 * out first, in ms: that close to its end, how late the machine runs would decide whether it
 * is reused.
 */
export const KEPT_MARGIN_MS = 100;
/**
 * And this much more for each server and each wave since the token came: every wave's
 * barriers and turns run a little late, and that adds up over waves that come back to back
 * (16 servers in turn took about 40 ms a wave on a busy two-core machine).
 */
export const KEPT_MARGIN_PER_SERVER_WAVE_MS = 5;

/** The margin of a token that came `wavesSince` waves ago, in ms. */
export const keptMarginMs = (servers: number, wavesSince: number): number =>
  KEPT_MARGIN_MS + KEPT_MARGIN_PER_SERVER_WAVE_MS * servers * wavesSince;

/** What a server does for its requests in a wave. */
export type KeptTokenStep = 'no requests' | 'reuses' | 'refreshes';

export interface KeptTokenStory {
  /** By wave, then by server. */
  steps: KeptTokenStep[][];
  refreshCalls: number;
  requestsFailed: number;
  /** Kept tokens the run lets run out before their server refreshes. */
  letRunOut: number;
}

interface Kept {
  /** Which token the provider issued, 1, 2, …: only the last one issued works. */
  issued: number;
  /** When its server stops using it, in ms from the first wave. */
  goodUntilMs: number;
  /** The wave it came in: its margin grows from there. */
  wave: number;
}

/** The paper run of single-flight-local at these parameters. */
export function keptTokenStory(params: Params): KeptTokenStory {
  const requests = intParam(params, 'requests');
  const servers = intParam(params, 'servers');
  const waves = intParam(params, 'waves');
  const waveGapMs = intParam(params, 'waveGapMs');
  const latencyMs = intParam(params, 'providerLatencyMs');
  const useForMs = tokenUseMs(intParam(params, 'tokenTtlMs'));
  const inTurn = choiceParam(params, 'arrival') === 'in-turn';
  const plans = Array.from({ length: servers }, (_, k) => requestPlan(requests, servers, waves, k));

  const kept: (Kept | null)[] = Array.from({ length: servers }, () => null);
  const steps: KeptTokenStep[][] = [];
  let issued = 0;
  let requestsFailed = 0;
  let letRunOut = 0;
  let doneMs = 0; // when the wave before had every token
  for (let wave = 0; wave < waves; wave++) {
    const arrivesMs = Math.max(wave * waveGapMs, doneMs);
    let turnMs = arrivesMs; // in turn: when the server before has its tokens
    const row: KeptTokenStep[] = [];
    const holders: { issued: number; requests: number }[] = [];
    for (let k = 0; k < servers; k++) {
      const count = plans[k]![wave]!.length;
      if (count === 0) {
        row.push('no requests');
        continue;
      }
      const asksMs = inTurn ? turnMs : arrivesMs;
      let token = kept[k];
      let gotMs = asksMs;
      if (token && token.goodUntilMs - asksMs >= keptMarginMs(servers, wave - token.wave)) {
        row.push('reuses');
      } else {
        row.push('refreshes');
        if (token && token.goodUntilMs > asksMs) letRunOut++;
        gotMs = Math.max(asksMs, token?.goodUntilMs ?? 0) + latencyMs;
        token = kept[k] = { issued: ++issued, goodUntilMs: gotMs + useForMs, wave };
      }
      holders.push({ issued: token.issued, requests: count });
      turnMs = gotMs;
      doneMs = Math.max(doneMs, gotMs);
    }
    // Every request calls the API once all of the wave's have their tokens, and only the
    // last token issued works: of two servers in a wave, one fails.
    for (const holder of holders) if (holder.issued !== issued) requestsFailed += holder.requests;
    steps.push(row);
  }
  return { steps, refreshCalls: issued, requestsFailed, letRunOut };
}

/**
 * Why a per-process token still passes at these parameters, or null. It passes when no
 * request uses a token another server's refresh has revoked, and the refreshes fit the
 * budget: one server has requests, or one request comes a wave and each server's kept token
 * is done with when it is back.
 */
export function keptTokensPass(params: Params): string | null {
  const story = keptTokenStory(params);
  const budget = refreshBudget(params);
  if (story.requestsFailed > 0 || story.refreshCalls > budget) return null;
  const requests = intParam(params, 'requests');
  const servers = intParam(params, 'servers');
  if (Math.min(requests, servers) === 1) {
    return story.refreshCalls === 1
      ? 'only one server has requests: no other process revokes its token'
      : `only one server has requests: no other process revokes its token, and it refreshes ${story.refreshCalls} times as its token's use ends, within ${budget} refresh calls`;
  }
  const back = requests > servers ? ", and each server's kept token is done with when it is back" : ' on servers of their own';
  const ranOut =
    story.letRunOut === 0
      ? ''
      : story.letRunOut === 1
        ? ' (one let run out first, too close to its end to call)'
        : ` (${story.letRunOut} let run out first, too close to their end to call)`;
  return `${requests} requests, one a wave${back}${ranOut}, within ${budget} refresh calls: each refresh revokes a token already used`;
}
