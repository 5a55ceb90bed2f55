// lost-update as an exercise: read-modify-write writes back a number computed from a stale
// read; the learner lets the database subtract, and refuse, in one statement.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'read-modify-write',
  solution: 'atomic-update',
  hints: [
    "Every admin computes the new stock from what it read before thinking, so the last write replaces the others' sales. Let the database subtract from the stock it holds when the write arrives, and refuse a sale that no longer fits in that same step.",
    'One UPDATE does both under the row lock: UPDATE products SET stock = stock - $2 WHERE id = $1 AND stock >= $2 RETURNING stock. No row back means the sale did not fit what is left.',
    'Keep the read, its value-read event and admin.think(); then call admin.sell(…) with that statement instead of writing the number you computed: it returns the stock left, or undefined when no row matched, and then emit write-rejected rather than write-accepted.',
  ],
  setReasons: [
    'three admins read 100 and sell 10, 20 and 30: every sale fits, so the stock must end at 40, not at what the last writer computed',
    'two admins read 5 and sell 4 and 3: each fits what it read, but not both: the second must be refused and the stock never go below zero',
  ],
};
