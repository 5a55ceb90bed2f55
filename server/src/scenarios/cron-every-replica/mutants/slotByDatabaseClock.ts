// unique-slot-row, with the slot read from the database's clock when the insert lands.
import { mutantOf } from '../../types.js';
import { SLOT_MS } from '../schedule.js';
import uniqueSlotRow from '../variants/uniqueSlotRow.js';

export default mutantOf(uniqueSlotRow, {
  id: 'slot-by-database-clock',
  mistake: "names the slot by the database's clock as the insert lands (now, rounded down to the period), not by the run croner fired for",
  failsAt: { replicas: 3, skewMs: 1300 },
  title: "A unique row per slot of the database's clock",
  summary:
    "The claim is the slot PostgreSQL's clock is in as it lands. Clocks a little apart agree on it; replica-3, 2.6 s late, lands in the next slot, claims that one, and sends the slot's report again.",
  source: import.meta.url,
  steps: {
    // The mistake: a late replica fires for the same slot, but the database's clock has moved on.
    claim: async (job) => {
      const { rows } = await job.pg.query<{ claim: string }>(
        `insert into slot_claims (claim, replica)
         values (to_char(to_timestamp(floor(extract(epoch from clock_timestamp()) / $2) * $2) at time zone 'UTC', 'HH24:MI:SS'), $1)
         on conflict (claim) do nothing returning claim`,
        [job.workerId, SLOT_MS / 1000],
      );
      return rows[0]?.claim ?? null;
    },
  },
});
