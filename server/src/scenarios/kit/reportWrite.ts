// What became of a write to a fenced row, for the timeline: it landed, or the row's fence
// turned it down (the UPDATE's guard matched no row). The verdict never reads this: it
// counts what the database logged.
import type { WorkerContext } from '../types.js';

/** Emits write-accepted when `updated` rows changed, else write-rejected by the row's newer fence. */
export function reportWrite(ctx: Pick<WorkerContext, 'emit'>, updated: number, target: string, value: string, fence?: number): void {
  const fenced = fence === undefined ? {} : { fence };
  if (updated > 0) ctx.emit({ type: 'write-accepted', target, value, ...fenced });
  else ctx.emit({ type: 'write-rejected', target, value, ...fenced, reason: 'the row holds a newer fence' });
}

/**
 * The holder's draft of the document, written by `write` with its fence (the variant's own
 * UPDATE and guard), and what the row did with it on the timeline.
 */
export async function writeDraft<Job extends Pick<WorkerContext, 'emit' | 'workerId'>>(
  job: Job,
  fence: number,
  write: (job: Job, content: string, fence: number) => Promise<number>,
): Promise<void> {
  const content = `draft by ${job.workerId}`;
  reportWrite(job, await write(job, content, fence), 'document', content, fence);
}
