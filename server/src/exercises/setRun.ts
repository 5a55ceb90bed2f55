// One run at one set, told as a grade needs it: the verdict's failed expectations in the
// verdict's own words ("E-mails sent: 3 — should be 1"), and the stalls the run reached.
import { verdictLine, type MetricSpec } from '@racelab/shared';
import type { Playground, StartRequest } from '../runs/playground.js';
import { stallFacts, type StallFacts } from './stallCheck.js';

export interface SetRun {
  runId: string;
  /** The verdict passed (false too when the run failed). */
  passed: boolean;
  /** Each failed expectation in the verdict's words, or the reason the run failed. */
  failures: string[];
  /** The ids of the failed expectations: what a near-miss is matched by. */
  failedIds: string[];
  /** Why the run failed before its verdict, when it did. */
  runFailed?: string;
  facts: StallFacts;
}

/** Plays one run to its end; `checkpoints` are the ones whose reaching counts as a stall (stallCheck.ts). */
export async function playSet(
  playground: Playground,
  request: StartRequest,
  metrics: MetricSpec[],
  checkpoints: readonly string[],
): Promise<SetRun> {
  const prepared = playground.prepare(request);
  if (!prepared.ok) throw new Error(prepared.error);
  const { run } = prepared;
  const outcome = await run.start();
  const facts = stallFacts(run.events, checkpoints);
  if (outcome.status === 'failed') {
    return {
      runId: run.id,
      passed: false,
      failures: [`the run failed: ${outcome.message}`],
      failedIds: [],
      runFailed: outcome.message,
      facts,
    };
  }
  const failed = outcome.results.filter((r) => !r.held);
  return {
    runId: run.id,
    passed: outcome.verdict === 'pass',
    failures: failed.map((r) =>
      verdictLine(
        r,
        metrics.find((m) => m.name === r.metric),
      ),
    ),
    failedIds: failed.map((r) => r.id),
    facts,
  };
}
