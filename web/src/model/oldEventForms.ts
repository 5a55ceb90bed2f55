// Only for recordings made before `event-loop-blocked` and `clock-skewed` existed: there the
// blocked loop was a work span whose label said so ("synchronous task: event loop blocked")
// and a node's clock was a note ("node-2's clock is 1000 ms behind node-1's: …"). Runs
// recorded since carry the typed facts, which is all the lanes read from newer runs.
import type { EventOf } from '@racelab/shared';

/** A worker's clock against another's, as `clock-skewed` carries it. */
export type ClockSkew = Pick<EventOf<'clock-skewed'>, 'offsetMs' | 'reference' | 'mechanism'>;

const OLD_BLOCK_LABEL = /^(.*?):? event loop (?:is )?blocked$/i;
const OLD_CLOCK_NOTE = /clock is (\d+(?:\.\d+)?) ms (behind|ahead of) ([\w-]+?)'s/;

/** The task of an old work label that said it blocked the event loop ("synchronous task"), else null. */
export function oldBlockTask(label: string): string | null {
  const m = OLD_BLOCK_LABEL.exec(label);
  return m ? m[1] || label : null;
}

/** The clock an old note told of ("… clock is 1000 ms behind node-1's …"), else null. */
export function oldClockNote(text: string): ClockSkew | null {
  const m = OLD_CLOCK_NOTE.exec(text);
  return m ? { offsetMs: (m[2] === 'behind' ? -1 : 1) * Number(m[1]), reference: m[3]! } : null;
}
