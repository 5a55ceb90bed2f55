import { defineSteppedVariant } from '../../types.js';
import type { ReplicaJob } from '../replicaJob.js';

/** The step of unique-slot-row that its near-misses replace. */
export interface SlotClaimSteps {
  /** Claims the slot in slot_claims, whose claim is its primary key: the claim taken, or null when another replica's holds it. */
  claim(job: ReplicaJob): Promise<string | null>;
}

export default defineSteppedVariant<ReplicaJob, SlotClaimSteps>({
  id: 'unique-slot-row',
  title: 'A unique row per slot, then the report',
  correct: true,
  summary:
    "Each replica's croner still fires, and inserts a row for its slot with ON CONFLICT DO NOTHING; only the replica whose insert landed sends the report. The table takes each slot once, however late a clock fires for it.",
  figures: 'croner fired 3 times: reports sent 1',
  source: import.meta.url,
  checkpoints: ['sending'],
  steps: {
    // The slot as croner named it on this replica's clock: every replica names the same one.
    claim: async (job) => {
      const { rows } = await job.pg.query<{ claim: string }>(
        'insert into slot_claims (claim, replica) values ($1, $2) on conflict (claim) do nothing returning claim',
        [job.slot, job.workerId],
      );
      return rows[0]?.claim ?? null;
    },
  },
  async run(job, { claim }) {
    const claimed = await claim(job);
    if (claimed === null) {
      job.emit({ type: 'write-rejected', target: 'slot_claims', value: job.slot, reason: 'another replica claimed the slot' });
      job.skip(`another replica claimed ${job.slot}`);
      return;
    }
    job.emit({ type: 'write-accepted', target: 'slot_claims', value: `${claimed} by ${job.workerId}` });
    // Only the insert that landed sends: the report happens once per slot.
    await job.sendReport();
  },
});
