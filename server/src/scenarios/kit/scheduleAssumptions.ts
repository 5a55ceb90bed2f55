// What correct variants' verdicts rest on that a choreography stages and an explored schedule
// may break, each read from the schedule's own decisions, the run's log in order, or the stores
// at the run's end: a lease run out by the schedule, a holder killed, a container that takes the
// lock only after another is done with it, an older holder that writes before the newer one. A
// scenario names the ones its verdicts rest on (ScenarioDefinition.assumptions).
import type { RunEvent } from '@racelab/shared';
import type { Assumption, PlayedFacts } from '../types.js';
import { WRITES_TABLE } from './fencedLedger.js';

/** The work ends inside the lease: broken by a schedule that lets a lease run out on Redis's clock. */
export const LEASE_OUTLASTS_THE_WORK: Assumption = {
  words: 'the lease outlasts the work',
  brokenBy: ({ choices }) => choices.some((c) => c.expire !== undefined),
};

/** Whoever takes the lock lives to release it: broken by a schedule that kills a worker holding one. */
export const HOLDER_LIVES: Assumption = {
  words: 'the lock holder lives to release it',
  brokenBy: ({ choices, events, trace }) =>
    choices.some((c) => c.kill && (holdsAtTheEnd(events, c.worker) || calledAcquireLast(trace, c.worker))),
};

/** Every worker lives to finish its part: broken by a schedule that kills one (a sale never made is not a sale lost). */
export const EVERY_WORKER_FINISHES = (words: string): Assumption => ({
  words,
  brokenBy: ({ choices }) => choices.some((c) => c.kill),
});

/**
 * The worker's last call of a lock's adapter before it died was an acquire: it may hold the lock
 * though it never said so (killed between the grant and its report of it).
 */
function calledAcquireLast(trace: PlayedFacts['trace'], worker: string): boolean {
  const calls = trace
    .filter((d) => d.choice.worker === worker && !d.choice.kill)
    .map((d) => d.waiting.find((w) => w.worker === worker)!.step)
    .filter((step) => step.kind === 'lock');
  const last = calls.at(-1);
  return last?.kind === 'lock' && last.call === 'acquire';
}

/**
 * Every container tries the lock while the first holds it: broken when one takes it after
 * another released it (it came when the first was done, as if it had fired later).
 */
export const ARRIVE_TOGETHER: Assumption = {
  words: 'the containers arrive together',
  brokenBy: ({ events }) => takenAfterARelease(events),
};

/**
 * The newer holder of a fenced lease writes before the older one: broken when a write reaches
 * the guarded row while a lease granted after its sender's, to another worker, had been issued
 * and its holder had not written yet. Read from the fenced ledger (fencedLedger.ts) as the
 * stores timed it: the grants at Redis's time, the row's UPDATEs at PostgreSQL's. The workers'
 * words would say it late: a grant's number is read back after Redis granted it, a write is
 * reported after a checkpoint the schedule may hold.
 */
export const NEWER_HOLDER_WRITES_FIRST: Assumption = {
  words: 'the newer holder writes first',
  brokenInStores: async (stores) => {
    const { rows } = await stores.sql<{ broken: boolean }>(
      `select exists (
         select 1 from ${WRITES_TABLE} w
           join grants g on g.worker <> w.worker and g.granted_at <= w.at
                        and g.grant_no > coalesce((select max(o.grant_no) from grants o
                                                    where o.worker = w.worker and o.granted_at <= w.at), 0)
          where not exists (select 1 from ${WRITES_TABLE} n where n.worker = g.worker and n.at < w.at)) as broken`,
    );
    return rows[0]?.broken === true;
  },
};

/** The worker took a lease and never released it (a killed worker says nothing after its kill). */
function holdsAtTheEnd(events: RunEvent[], worker: string): boolean {
  let holds = false;
  for (const e of events) {
    if (e.workerId !== worker) continue;
    if (e.type === 'lease-acquired') holds = true;
    if (e.type === 'lease-released') holds = false;
  }
  return holds;
}

function takenAfterARelease(events: RunEvent[]): boolean {
  const released = new Set<string>();
  for (const e of events) {
    if (e.workerId === null) continue;
    if (e.type === 'lease-released') released.add(e.workerId);
    if (e.type === 'lease-acquired' && [...released].some((w) => w !== e.workerId)) return true;
  }
  return false;
}
