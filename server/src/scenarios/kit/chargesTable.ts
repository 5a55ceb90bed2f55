// The charges a job queue's handler makes (stalled-job's bullmq, expired-job's pg-boss): one row
// a charge, stamped by PostgreSQL's clock as it lands. The table takes each idempotency key once;
// a charge without one (NULL) is never refused for it.
import type { RunStores } from '../types.js';

export async function createChargesTable(stores: RunStores): Promise<void> {
  await stores.sql(`create table charges (
    id serial primary key,
    job_id text not null,
    idempotency_key text unique,
    attempt int not null,
    worker text not null,
    charged_at timestamptz not null default clock_timestamp()
  )`);
}
