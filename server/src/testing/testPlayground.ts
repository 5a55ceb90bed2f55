// Opens a playground on the real Redis and PostgreSQL for integration tests, and runs a
// scenario variant to its verdict.
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { Playground, type PlaygroundOptions } from '../runs/playground.js';
import type { Run, RunOutcome } from '../runs/run.js';
import type { FaultRule, RunEvent } from '@racelab/shared';

/** A playground on REDIS_URL / DATABASE_URL, or the local defaults. */
export function openTestPlayground(poolSize = 2, options: Pick<PlaygroundOptions, 'labMechanisms'> = {}): Promise<Playground> {
  return Playground.open({
    redisUrl: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
    databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    poolSize,
    ...options,
  });
}

export interface Played {
  run: Run;
  outcome: RunOutcome;
  events: RunEvent[];
  metrics: Record<string, number | string>;
  verdict: 'pass' | 'fail' | 'error';
}

/** Runs a variant to the end; throws if the request is rejected. */
export async function play(
  playground: Playground,
  scenario: string,
  variant: string,
  params: Record<string, unknown> = {},
  faults?: FaultRule[],
  options: { mutants?: boolean } = {},
): Promise<Played> {
  const prepared = playground.prepare({ scenario, variant, params, faults, mutants: options.mutants });
  if (!prepared.ok) throw new Error(prepared.error);
  const outcome = await prepared.run.start();
  return {
    run: prepared.run,
    outcome,
    events: prepared.run.events,
    // A run that failed has no metrics: its reason stands in for them, so that an assertion
    // on the metrics says why instead of "expected {}".
    metrics: outcome.status === 'finished' ? outcome.metrics : { runFailed: outcome.message },
    verdict: outcome.status === 'finished' ? outcome.verdict : 'error',
  };
}

/** Events of one type, optionally of one worker, in the order they were appended. */
export function eventsOf<T extends RunEvent['type']>(events: RunEvent[], type: T, workerId?: string): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type && (workerId === undefined || e.workerId === workerId));
}
