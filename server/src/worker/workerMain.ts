// Entry of a pooled worker process. It connects to Redis and PostgreSQL and loads the
// scenarios before it says "ready", so a run starts without paying for any of that;
// it plays one part in one run, then exits.
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadCatalog } from '../scenarios/registry.js';
import type { FromWorker, ToWorker, WorkerPlan } from './ipc.js';
import { createWorkerContext } from './workerContext.js';

const send = (message: FromWorker): void => {
  process.send?.(message);
};

// A worker must never outlive the server that forked it.
process.on('disconnect', () => process.exit(1));

const redisUrl = process.env.RACELAB_REDIS_URL;
const databaseUrl = process.env.RACELAB_DATABASE_URL;
if (!redisUrl || !databaseUrl) throw new Error('worker started without RACELAB_REDIS_URL / RACELAB_DATABASE_URL');

const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectionName: 'racelab-worker' });
redis.on('error', () => {
  // Reported through the command that fails; an unhandled 'error' would crash the process.
});
const client = new pg.Client({ connectionString: databaseUrl, application_name: 'racelab-worker' });
client.on('error', () => {
  // Same: the failing query carries the error to the job.
});

const [catalog] = await Promise.all([loadCatalog(), client.connect(), redis.ping()]);

async function play(plan: WorkerPlan, feed: (handler: (m: ToWorker) => void) => void): Promise<void> {
  const scenario = catalog.scenarios.get(plan.scenario);
  const variant = scenario?.variants.find((v) => v.id === plan.variant);
  if (!scenario || !variant) throw new Error(`unknown scenario/variant ${plan.scenario}/${plan.variant}`);
  // The schema name comes from the server, never from a page, and is [a-z0-9_] only.
  await client.query(`set search_path to ${plan.schema}`);
  const { ctx, onMessage } = createWorkerContext(plan, redis, client, send);
  feed(onMessage);
  await scenario.work(ctx, variant);
}

let handler: ((m: ToWorker) => void) | undefined;
process.on('message', (message: ToWorker) => {
  if (message.kind !== 'plan') return handler?.(message);
  play(message.plan, (h) => (handler = h))
    .then(
      (): FromWorker => ({ kind: 'finished' }),
      (error: unknown): FromWorker => ({
        kind: 'finished',
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    .then((finished) => {
      redis.disconnect();
      void client.end().catch(() => undefined);
      // Exit only once the message has left: process.exit would drop a queued IPC send.
      process.send?.(finished, () => process.exit(0));
    });
});

send({ kind: 'ready' });
