// Worker entry for the bench-only emitter scenario: the same steps as worker/workerMain.ts
// (connect, say ready, take one plan, play it with the real worker context, exit), with
// the emitter scenario in place of the catalog, which must not contain it.
import { Redis } from 'ioredis';
import pg from 'pg';
import { type FromWorker, type ToWorker, type WorkerPlan, createWorkerContext } from '@racelab/server';
import emitter from './emitterScenario.js';

const send = (message: FromWorker): void => {
  process.send?.(message);
};
process.on('disconnect', () => process.exit(1));

const redis = new Redis(process.env.RACELAB_REDIS_URL!, { maxRetriesPerRequest: 1, connectionName: 'racelab-bench-worker' });
redis.on('error', () => undefined);
const client = new pg.Client({ connectionString: process.env.RACELAB_DATABASE_URL, application_name: 'racelab-bench-worker' });
client.on('error', () => undefined);
await Promise.all([client.connect(), redis.ping()]);

async function play(plan: WorkerPlan, feed: (handler: (m: ToWorker) => void) => void): Promise<void> {
  const variant = emitter.variants.find((v) => v.id === plan.variant);
  if (plan.scenario !== emitter.id || !variant) throw new Error(`not the emitter: ${plan.scenario}/${plan.variant}`);
  await client.query(`set search_path to ${plan.schema}`);
  const { ctx, onMessage } = createWorkerContext(plan, redis, client, send);
  feed(onMessage);
  await emitter.work(ctx, variant);
}

let handler: ((m: ToWorker) => void) | undefined;
process.on('message', (message: ToWorker) => {
  if (message.kind !== 'plan') return handler?.(message);
  // Not awaited: the chain turns any failure into the 'finished' message the server waits for.
  void play(message.plan, (h) => (handler = h))
    .then(
      (): FromWorker => ({ kind: 'finished' }),
      (error: unknown): FromWorker => ({ kind: 'finished', error: error instanceof Error ? error.message : String(error) }),
    )
    .then((finished) => {
      redis.disconnect();
      void client.end().catch(() => undefined);
      process.send?.(finished, () => process.exit(0));
    });
});

send({ kind: 'ready' });
