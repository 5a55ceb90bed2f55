// What correct variants' verdicts rest on that a choreography stages and an explored schedule
// may break, each read from the schedule's own decisions or the run's log in order: a lease
// run out by the schedule, a holder killed, a container that takes the lock only after another
// is done with it, an older holder that writes before the newer one. A scenario names the ones its
// verdicts rest on (ScenarioDefinition.assumptions).
import type { RunEvent } from '@racelab/shared';
import type { Assumption } from '../types.js';

/** The work ends inside the lease: broken by a schedule that lets a lease run out on Redis's clock. */
export const LEASE_OUTLASTS_THE_WORK: Assumption = {
  words: 'the lease outlasts the work',
  brokenBy: ({ choices }) => choices.some((c) => c.expire !== undefined),
};

/** Whoever takes the lock lives to release it: broken by a schedule that kills a worker holding one. */
export const HOLDER_LIVES: Assumption = {
  words: 'the lock holder lives to release it',
  brokenBy: ({ choices, events }) => choices.some((c) => c.kill && holdsAtTheEnd(events, c.worker)),
};

/**
 * Every container tries the lock while the first holds it: broken when one takes it after
 * another released it (it came when the first was done, as if it had fired later).
 */
export const ARRIVE_TOGETHER: Assumption = {
  words: 'the containers arrive together',
  brokenBy: ({ events }) => takenAfterARelease(events),
};

/** The newer holder of a fenced lease writes before the older one: broken when a write comes with an older fence while a newer one's holder has not written. */
export const NEWER_HOLDER_WRITES_FIRST: Assumption = {
  words: 'the newer holder writes first',
  brokenBy: ({ events }) => olderWriteFirst(events),
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

function olderWriteFirst(events: RunEvent[]): boolean {
  const granted = new Map<number, string>();
  const wrote = new Set<string>();
  for (const e of events) {
    if (e.workerId === null) continue;
    if (e.type === 'lease-acquired' && e.fence !== undefined) granted.set(e.fence, e.workerId);
    if ((e.type === 'write-accepted' || e.type === 'write-rejected') && e.fence !== undefined) {
      const fence = e.fence;
      const waiting = [...granted].some(([newer, holder]) => newer > fence && holder !== e.workerId && !wrote.has(holder));
      if (waiting) return true;
      wrote.add(e.workerId);
    }
  }
  return false;
}
