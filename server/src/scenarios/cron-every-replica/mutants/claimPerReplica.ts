// unique-slot-row, with the claim naming the replica as well as the slot.
import { mutantOf } from '../../types.js';
import uniqueSlotRow from '../variants/uniqueSlotRow.js';

export default mutantOf(uniqueSlotRow, {
  id: 'claim-per-replica',
  mistake: 'makes the claim of the slot and the replica (a unique (slot, host) row), so every replica has a claim of its own',
  failsAt: {},
  title: 'A unique row per slot and replica',
  summary:
    'The table takes each claim once, but every replica brings a new one: all three inserts land and the report is sent three times.',
  source: import.meta.url,
  steps: {
    // The mistake: the slot is the same for every replica, so the claim must be too.
    claim: async (job) => {
      const { rows } = await job.pg.query<{ claim: string }>(
        'insert into slot_claims (claim, replica) values ($1, $2) on conflict (claim) do nothing returning claim',
        [`${job.slot} on ${job.workerId}`, job.workerId],
      );
      return rows[0]?.claim ?? null;
    },
  },
});
