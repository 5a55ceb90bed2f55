// Entry of a pooled worker process. It connects to Redis and PostgreSQL and loads the
// scenarios before it says "ready", so a run starts without paying for any of that. It
// plays its part in a run; after a run of racelab's own code that ended well it may
// instead drop that run's connections and serve the next one (see `finish`).
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
import { closeStores, leftBehind } from './workerReuse.js';

const send = (message: FromWorker): void => {
  process.send?.(message);
};

// A worker must never outlive the server that forked it.
process.on('disconnect', () => process.exit(1));

// The server's URLs: a run's login points the environment at its own users (runLogin.ts); a
// worker that stays for the next run points it back here.
const redisUrl = process.env.RACELAB_REDIS_URL;
const databaseUrl = process.env.RACELAB_DATABASE_URL;
if (!redisUrl || !databaseUrl) throw new Error('worker started without RACELAB_REDIS_URL / RACELAB_DATABASE_URL');

interface Stores {
  redis: Redis;
  client: pg.Client;
}

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

/**
 * The process's connections, as the server's user. No reconnecting: a connection that breaks
 * mid-run could replay a command (a second SETNX, a second INCR) and quietly change the
 * verdict. A worker whose connection breaks ends its part with a clear error instead, and an
 * idle one exits so the pool forks a fresh one. Only the connections in use are heard: those
 * a worker closed after its last run close late, and say nothing.
 */
function openStores(): Stores {
  const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 0, retryStrategy: () => null, connectionName: 'racelab-worker' });
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'racelab-worker' });
  const current = (): boolean => stores.redis === redis;
  redis.on('error', () => {
    // Reported through the command that fails, or as a lost connection below.
  });
  redis.on('close', () => current() && connectionLost(REDIS_STORE, 'the connection closed'));
  client.on('error', (error) => current() && connectionLost(POSTGRES_STORE, error.message));
  client.on('end', () => current() && connectionLost(POSTGRES_STORE, 'the connection ended'));
  return { redis, client };
}

/** Exits when the stores could not be reached: quietly when PostgreSQL is full (the run waits and asks again, runs/storeFull.ts). */
function couldNotConnect(error: unknown): never {
  if (isTooManyConnections(error)) process.exit(STORE_FULL_EXIT_CODE);
  // One line, not a stack: the pool says it could not start a worker and tries again later.
  process.stderr.write(`racelab worker: could not connect to the stores: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

let stores = openStores();
let scenarios: Awaited<ReturnType<typeof loadScenarios>>;
try {
  [scenarios] = await Promise.all([loadScenarios(), stores.client.connect(), stores.redis.ping()]);
} catch (error) {
  couldNotConnect(error);
}

async function play(plan: WorkerPlan, feed: (handler: (m: ToWorker) => void) => void): Promise<void> {
  const { redis, client } = stores;
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
  // An explored run's commits do not wait for the WAL to reach the disk: what one session
  // committed is visible to every other at once all the same, so no step sees other rows and
  // no verdict moves; only a crash of PostgreSQL could lose them, with the run's schema. The
  // schedule waits for each statement in turn, and a flush took 2 to 5 ms here.
  const commits = plan.explore ? '; set synchronous_commit to off' : '';
  await client.query(
    `set search_path to ${plan.schema}; set application_name to 'racelab-worker ${plan.schema} ${plan.workerId}'${commits}`,
  );
  const { ctx, onMessage, gate, endSleeps } = createWorkerContext(plan, redis, client, send, variant.keyAliases);
  feed(onMessage);
  if (plan.explore) {
    gateRedis(redis, plan.keyPrefix, gate);
    gatePostgres(client, gate);
  }
  try {
    await scenario.work(ctx, variant);
  } finally {
    endSleeps();
  }
}

/**
 * The part is over. As a rule the worker closes its connections, says so and exits: a run
 * never inherits another's process. A worker of racelab's own catalog code (plan.keepWarm: no
 * lab, no lock library, on the server's warm pool) whose part ended well offers to
 * stay instead, once its connections are closed and its part left no handle behind (a
 * timer, a socket, a child: leftBehind). Its run's connections and their session state (the
 * run's users, search_path, application_name, the gated commands) go with them; what the
 * next run gets is made afresh by `comeBack`: new connections, a new context, the server's
 * URLs in the environment. The scenario modules it keeps hold no state of a run's (their
 * caches are keyed by the run's connections: kit/deleteIfEqual.ts, hot-key/entityJob.ts).
 */
async function finish(plan: WorkerPlan, finished: FromWorker & { kind: 'finished' }): Promise<void> {
  if (finishing) return; // a lost connection has already said so
  finishing = true;
  if (!plan.keepWarm || finished.error) {
    stores.redis.disconnect();
    void stores.client.end().catch(() => undefined);
    // Exit only once the message has left: process.exit would drop a queued IPC send.
    return void process.send?.(finished, () => process.exit(0));
  }
  await closeStores(stores.redis, stores.client);
  const left = await leftBehind();
  if (left.length > 0) {
    process.stderr.write(`racelab worker: exits after its run, which left ${left.join(', ')} behind\n`);
    return void process.send?.(finished, () => process.exit(0));
  }
  send({ ...finished, stays: true }); // the server answers 'stay' or 'leave'
}

/** Back to the pool after an explored run: the server's URLs again, fresh connections, then ready. */
async function comeBack(): Promise<void> {
  process.env.RACELAB_REDIS_URL = redisUrl;
  process.env.RACELAB_DATABASE_URL = databaseUrl;
  handler = undefined;
  stores = openStores();
  try {
    await Promise.all([stores.client.connect(), stores.redis.ping()]);
  } catch (error) {
    couldNotConnect(error);
  }
  playing = false;
  finishing = false;
  send({ kind: 'ready' });
}

let handler: ((m: ToWorker) => void) | undefined;
process.on('message', (message: ToWorker) => {
  if (message.kind === 'stay') return void comeBack();
  if (message.kind === 'leave') return process.exit(0);
  if (message.kind !== 'plan') return handler?.(message);
  playing = true;
  const { plan } = message;
  // Not awaited: the chain turns any failure into the 'finished' message the server waits for.
  void play(plan, (h) => (handler = h))
    .then(
      (): FromWorker & { kind: 'finished' } => ({ kind: 'finished' }),
      (error: unknown): FromWorker & { kind: 'finished' } => ({
        kind: 'finished',
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    .then((finished) => finish(plan, finished));
});

send({ kind: 'ready' });
