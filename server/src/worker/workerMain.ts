// Entry of a pooled worker process. It connects to Redis and PostgreSQL and loads the
// scenarios before it says "ready", so a run starts without paying for any of that;
// it plays one part in one run, then exits.
import { Redis } from 'ioredis';
import pg from 'pg';
import { LOST_STORE_EXIT_CODES, POSTGRES_STORE, lostConnectionWords, REDIS_STORE, type CoreStore } from '@racelab/shared';
import { findVariant, loadScenarios } from '../scenarios/registry.js';
import type { FromWorker, ToWorker, WorkerPlan } from './ipc.js';
import { createWorkerContext } from './workerContext.js';
import { logInAsRun } from './runLogin.js';
import { loadEditedVariant } from './editedCode.js';
import { gatePostgres, gateRedis } from './scheduledStores.js';
import { isTooManyConnections, STORE_FULL_EXIT_CODE } from './storeFullExit.js';

const send = (message: FromWorker): void => {
  process.send?.(message);
};

// A worker must never outlive the server that forked it.
process.on('disconnect', () => process.exit(1));

const redisUrl = process.env.RACELAB_REDIS_URL;
const databaseUrl = process.env.RACELAB_DATABASE_URL;
if (!redisUrl || !databaseUrl) throw new Error('worker started without RACELAB_REDIS_URL / RACELAB_DATABASE_URL');

// No reconnecting: a connection that breaks mid-run could replay a command (a second SETNX,
// a second INCR) and quietly change the verdict. A worker whose connection breaks ends its
// part with a clear error instead, and an idle one exits so the pool forks a fresh one.
const redis = new Redis(redisUrl, {
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
  connectionName: 'racelab-worker',
});
const client = new pg.Client({ connectionString: databaseUrl, application_name: 'racelab-worker' });

let playing = false;
let finishing = false;
let lost = false;
/** A store connection broke: mid-run the run hears why, at once; an idle worker just goes. */
function connectionLost(store: CoreStore, reason: string): void {
  if (finishing || lost) return;
  lost = true;
  const code = LOST_STORE_EXIT_CODES[store];
  if (!playing) process.exit(code);
  finishing = true;
  const finished: FromWorker = { kind: 'finished', error: `${lostConnectionWords(store)}: ${reason}` };
  if (process.send) process.send(finished, () => process.exit(code));
  else process.exit(code);
}
redis.on('error', () => {
  // Reported through the command that fails, or as a lost connection below.
});
redis.on('close', () => connectionLost(REDIS_STORE, 'the connection closed'));
client.on('error', (error) => connectionLost(POSTGRES_STORE, error.message));
client.on('end', () => connectionLost(POSTGRES_STORE, 'the connection ended'));

let scenarios: Awaited<ReturnType<typeof loadScenarios>>;
try {
  [scenarios] = await Promise.all([loadScenarios(), client.connect(), redis.ping()]);
} catch (error) {
  // PostgreSQL with no connection free: the run that wanted this worker waits and asks again (runs/storeFull.ts), quietly.
  if (isTooManyConnections(error)) process.exit(STORE_FULL_EXIT_CODE);
  // One line, not a stack: the pool says it could not start a worker and tries again later.
  process.stderr.write(`racelab worker: could not connect to the stores: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

async function play(plan: WorkerPlan, feed: (handler: (m: ToWorker) => void) => void): Promise<void> {
  const scenario = scenarios.get(plan.scenario);
  // The server checked the id (mutants come only from tests and the stability pass).
  const variant = plan.editedModule
    ? await loadEditedVariant(plan.editedModule)
    : scenario && findVariant(scenario, plan.variant, { mutants: true });
  if (!scenario || !variant) throw new Error(`unknown scenario/variant ${plan.scenario}/${plan.variant}`);
  // The schema name comes from the server, never from a page, and is [a-z0-9_] only; so are
  // the run and worker ids. The application name tells an operator whose backend this is.
  if (!/^[a-z0-9_]+$/.test(plan.schema) || !/^[a-z0-9-]+$/.test(plan.workerId)) throw new Error('bad plan');
  await logInAsRun(plan.credentials, redis, client);
  await client.query(`set search_path to ${plan.schema}`);
  await client.query(`set application_name to 'racelab-worker ${plan.schema} ${plan.workerId}'`);
  const { ctx, onMessage, gate } = createWorkerContext(plan, redis, client, send, variant.keyAliases);
  feed(onMessage);
  if (plan.explore) {
    gateRedis(redis, plan.keyPrefix, gate);
    gatePostgres(client, gate);
  }
  await scenario.work(ctx, variant);
}

let handler: ((m: ToWorker) => void) | undefined;
process.on('message', (message: ToWorker) => {
  if (message.kind !== 'plan') return handler?.(message);
  playing = true;
  // Not awaited: the chain turns any failure into the 'finished' message the server waits for.
  void play(message.plan, (h) => (handler = h))
    .then(
      (): FromWorker => ({ kind: 'finished' }),
      (error: unknown): FromWorker => ({
        kind: 'finished',
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    .then((finished) => {
      if (finishing) return; // a lost connection has already said so
      finishing = true;
      redis.disconnect();
      void client.end().catch(() => undefined);
      // Exit only once the message has left: process.exit would drop a queued IPC send.
      process.send?.(finished, () => process.exit(0));
    });
});

send({ kind: 'ready' });
