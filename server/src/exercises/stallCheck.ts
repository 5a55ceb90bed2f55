// Many variants carry the stall their scenario is about (a checkpoint, job.pause(), a blocked
// event loop): code that deletes it would pass without fixing anything. After each set's
// run, the edited code must have reached the stalls that both the starting variant and the
// solution reach there, read from the runs' logs: the checkpoints the starting variant
// declares, the planned process pauses (SIGSTOP) and the blocked event loops, as often.
import type { RunEvent } from '@racelab/shared';

/** What one run reached, by fact ("checkpoint working", "paused", "blocked"): how often, and the first worker that did. */
export type StallFacts = Map<string, { count: number; workerId: string }>;

const CHECKPOINT = 'checkpoint ';

/** The stall facts of a run's log; only the checkpoints named count (the exercise's own variant's). */
export function stallFacts(events: RunEvent[], checkpoints: readonly string[]): StallFacts {
  const facts: StallFacts = new Map();
  const add = (fact: string, workerId: string | null): void => {
    const had = facts.get(fact);
    if (had) had.count++;
    else facts.set(fact, { count: 1, workerId: workerId ?? 'a worker' });
  };
  for (const event of events) {
    if (event.type === 'checkpoint-reached' && checkpoints.includes(event.checkpoint))
      add(`${CHECKPOINT}${event.checkpoint}`, event.workerId);
    else if (event.type === 'process-paused' && event.plannedMs !== null) add('paused', event.workerId);
    else if (event.type === 'event-loop-blocked') add('blocked', event.workerId);
  }
  return facts;
}

/** The stalls two runs both reached, each as often as the one that reached it less (the solution's worker named). */
export function bothReach(a: StallFacts, b: StallFacts): StallFacts {
  const both: StallFacts = new Map();
  for (const [fact, inB] of b) {
    const inA = a.get(fact);
    if (inA) both.set(fact, { count: Math.min(inA.count, inB.count), workerId: inB.workerId });
  }
  return both;
}

/** Each stall the solution reached that the edited code did not (as often), in words; empty when none is missing. */
export function missingStalls(reference: StallFacts, edited: StallFacts): string[] {
  const missing: string[] = [];
  for (const [fact, { count, workerId }] of reference) {
    if ((edited.get(fact)?.count ?? 0) >= count) continue;
    if (fact.startsWith(CHECKPOINT)) {
      missing.push(`your code no longer reaches ${fact.slice(CHECKPOINT.length)}, where the scenario stalls ${workerId}: keep it`);
    } else if (fact === 'paused') {
      missing.push(`your code no longer stalls ${workerId} (its process pause) as the scenario does: keep it`);
    } else {
      missing.push(`your code no longer blocks ${workerId}'s event loop as the scenario does: keep it`);
    }
  }
  return missing;
}
