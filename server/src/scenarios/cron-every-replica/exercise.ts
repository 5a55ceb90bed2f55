// cron-every-replica as an exercise: every replica's croner sends the report; the learner
// lets only the replica whose row for the slot landed send it.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'every-replica',
  solution: 'unique-slot-row',
  hints: [
    "Croner keeps each replica's schedule, and only that replica's: all three fire for the same slot and nothing tells them another already has. Let the database say who sends the slot's report, whatever the clocks say.",
    "Insert a row for the slot into slot_claims (its claim is the primary key) with ON CONFLICT (claim) DO NOTHING: the insert lands for one replica only. Name the slot as croner fired for it (job.slot), the same on every replica, not by a clock's now.",
    "Run insert into slot_claims (claim, replica) values ($1, $2) on conflict (claim) do nothing on job.pg with job.slot and job.workerId; when it inserted no row, call job.skip('…') and return; otherwise await job.sendReport().",
  ],
  setReasons: [
    'three replicas 1.3 s apart: the last fires 2.6 s late, after any lock that ends with the two-second slot, and the slot must still be reported once',
    'four replicas whose clocks agree: they all fire at once, and only one may send the report',
  ],
};
