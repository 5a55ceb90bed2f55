// The event a link or a click picks out, in words: its mark's accessible name where it draws
// one, else what kind of fact it is, whose, and when.
import type { RunEvent } from '@racelab/shared';
import { deriveLanes } from './lanes.js';
import { formatMs } from './timeScale.js';

/** The mark id of an event's mark in its worker's lane (see lanes.ts). */
export const markIdOf = (seq: number): string => `mark-${seq}`;

/** The seq of a mark id, or null when it is not an event's mark. */
export function seqOfMarkId(id: string | null | undefined): number | null {
  const m = /^mark-(\d+)$/.exec(id ?? '');
  return m ? Number(m[1]) : null;
}

/** "worker-1 write to email accepted at 131 ms", or null when the log has no such event. */
export function selectedEventWords(events: readonly RunEvent[], seq: number): string | null {
  const event = events.find((e) => e.seq === seq);
  if (!event) return null;
  for (const lane of deriveLanes(events)) {
    const mark = lane.marks.find((m) => m.id === markIdOf(seq));
    if (mark) return mark.label;
  }
  return `${event.workerId ? `${event.workerId}: ` : ''}${event.type} at ${formatMs(event.atMs)}`;
}
