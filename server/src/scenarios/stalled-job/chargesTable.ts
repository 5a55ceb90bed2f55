// The job's side effect, where the verdict reads it: each charge of the card is a row of
// `charges`, stamped by PostgreSQL (clock_timestamp()) as it lands; the job's state and how
// many times bullmq started it are read from its keys in Redis.
import { POSTGRES_STORE, REDIS_STORE } from '@racelab/shared';
import type { Observed, RunStores } from '../types.js';
import { createChargesTable } from '../kit/chargesTable.js';
import { BULL_PREFIX, JOB_ID, JOB_KEY, QUEUE } from './chargeQueue.js';

/**
 * The tables of a run: the charges, and the fence of each job (fenced-attempt's). The table
 * takes each idempotency key once; a charge without one (NULL) is never refused for it.
 */
export async function createChargeTables(stores: RunStores): Promise<void> {
  await createChargesTable(stores);
  await stores.sql('create table job_fences (job_id text primary key, attempt int not null)');
}

/** How many times the card was charged, from the rows that landed. */
export async function chargeCount(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>('select count(*)::int as n from charges');
  return rows[0]?.n ?? 0;
}

/** bullmq's attemptsStarted for the job (its hash's `ats`): 2 when a second worker ran it. */
export async function jobStarts(stores: RunStores): Promise<number> {
  return Number((await stores.redis.hget(stores.key(JOB_KEY), 'ats')) ?? 0);
}

/** Where bullmq holds the job: which of its queue's lists or sets names it. */
export async function jobState(stores: RunStores): Promise<string | null> {
  const key = (name: string): string => stores.key(`${BULL_PREFIX}:${QUEUE}:${name}`);
  const [completed, failed, active, waiting] = await Promise.all([
    stores.redis.zscore(key('completed'), JOB_ID),
    stores.redis.zscore(key('failed'), JOB_ID),
    stores.redis.lpos(key('active'), JOB_ID),
    stores.redis.lpos(key('wait'), JOB_ID),
  ]);
  if (completed !== null) return 'completed';
  if (failed !== null) return 'failed';
  if (active !== null) return 'active';
  return waiting !== null ? 'waiting' : null;
}

/** The charges and the job, for the timeline's truth lanes. */
export async function observeCharges(stores: RunStores): Promise<Observed> {
  const { rows } = await stores.sql<{ worker: string; attempt: number }>('select worker, attempt from charges order by charged_at, id');
  const state = await jobState(stores);
  const charges = rows.map((r) => `${r.worker} (attempt ${r.attempt})`).join(', ');
  return {
    [POSTGRES_STORE]: { charges: rows.length === 0 ? null : `${rows.length} · ${charges}` },
    [REDIS_STORE]: { job: state === null ? null : `${state} · started ${await jobStarts(stores)}×` },
  };
}
