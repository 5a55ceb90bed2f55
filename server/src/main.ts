// racelab's server: finds the stores, warms the worker pool, serves the page and its
// WebSocket on one port. Binds 127.0.0.1 unless HOST says otherwise (HOST=0.0.0.0 for a
// room demo: then anyone who can reach this machine can start runs on it).
// Ctrl-C (SIGINT) or SIGTERM: new runs are refused, the runs going are cancelled and each
// page gets its run-failed, workers are killed, every run's keys and schema are dropped,
// and the stores this process started are stopped.
// --allow-own-locks (or RACELAB_ALLOW_OWN_LOCKS=1): the page may upload a lock module, which
// the server runs through `racelab check --lock`; that is code run on this machine, so off by default.
// --allow-exercises (or RACELAB_ALLOW_EXERCISES=1): a server bound beyond loopback runs exercises'
// edited code too (bound to loopback, it always does: exercises/policy.ts).
// --worker-agents <port> (or RACELAB_WORKER_AGENTS=<port>), with RACELAB_AGENT_TOKEN: worker
// agents on other hosts (containers) connect there and runs take their workers from them
// (agents/agentListener.ts); the port is bound to 127.0.0.1 unless --worker-agents-host (or
// RACELAB_WORKER_AGENTS_HOST) says otherwise. Off by default.
// RACELAB_TRUSTED_PROXIES (addresses or IPv4 ranges, comma-separated): the reverse proxies in
// front of this server, whose X-Forwarded-For names the page's address for the per-address
// run cap (http/clientAddress.ts); RACELAB_SERVER_NAME names this server among several behind
// one proxy (the x-racelab-server header). Both unset by default.
// RACELAB_RUN_SLOTS and RACELAB_QUEUE_LENGTH: the runs this server takes at once (three per
// core of the machine: runSlotsFor in http/limits.ts) and the starts that may wait in line for
// a slot (400) (http/limits.ts). Each page's run also waits there until the PostgreSQL
// connections it will open fit in the budget of every server sharing the database (runs/connectionBudget.ts),
// read from PostgreSQL, or fixed by RACELAB_CONNECTION_BUDGET.
// RACELAB_ROOM_TOKEN (or --room-token): the instructor's room view at /room?token=<it>, which
// shows every server sharing this Redis (http/room.ts). Off by default: without a token the
// server writes nothing of the room to Redis.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { readOptions } from './commandLine.js';
import { MIN_TOKEN_LENGTH } from './agents/agentListener.js';
import { createAppServer } from './http/appServer.js';
import { parseTrustedProxies, type TrustedProxy } from './http/clientAddress.js';
import { parseAllowedHosts } from './http/hosts.js';
import { runSlotsFor, type SocketLimits } from './http/limits.js';
import { Playground } from './runs/playground.js';
import { closeExerciseConfinement, exerciseConfinement, storesOf } from './exercises/confinement.js';
import { ALLOW_EXERCISES_ENV, exercisePolicy } from './exercises/policy.js';
import { describeServices, findServices, type Services } from './services/index.js';

const USAGE = `usage: node server/dist/main.js [--allow-own-locks] [--allow-exercises] [--worker-agents <port> [--worker-agents-host <address>]] [--room-token <secret>]
  (npm start -- --allow-own-locks)
  --allow-own-locks     run lock modules uploaded from the page's scorecard (also RACELAB_ALLOW_OWN_LOCKS=1)
  --allow-exercises     run exercises' edited code though HOST is not loopback (also RACELAB_ALLOW_EXERCISES=1)
  --worker-agents       take workers from worker agents on other hosts, which connect to this port
                        (also RACELAB_WORKER_AGENTS; needs RACELAB_AGENT_TOKEN, ${MIN_TOKEN_LENGTH} characters at least)
  --worker-agents-host  the address the agent port is bound to (also RACELAB_WORKER_AGENTS_HOST; default 127.0.0.1)
  --room-token          turn on the room view at /room?token=<secret> (also RACELAB_ROOM_TOKEN, which a process
                        list does not show; ${MIN_TOKEN_LENGTH} characters at least)
  environment: PORT, HOST, REDIS_URL, DATABASE_URL, RACELAB_ALLOWED_HOSTS, RACELAB_FRAME_ANCESTORS, RACELAB_POOL_SIZE,
               RACELAB_TRUSTED_PROXIES, RACELAB_SERVER_NAME, RACELAB_RUN_SLOTS, RACELAB_QUEUE_LENGTH,
               RACELAB_CONNECTION_BUDGET`;
const options = readOptions(USAGE, {
  'allow-own-locks': { type: 'boolean', default: false },
  'allow-exercises': { type: 'boolean', default: false },
  'worker-agents': { type: 'string' },
  'worker-agents-host': { type: 'string' },
  'room-token': { type: 'string' },
});
const allowOwnLocks = options['allow-own-locks'] || process.env.RACELAB_ALLOW_OWN_LOCKS === '1';
const allowExercises = options['allow-exercises'] || process.env[ALLOW_EXERCISES_ENV] === '1';
const workerAgents = readWorkerAgents(options['worker-agents'] ?? process.env.RACELAB_WORKER_AGENTS);
const { trustedProxies, serverName } = readProxySettings();

/** The proxies trusted and this server's name, or exit 2 with the reason before any service is touched. */
function readProxySettings(): { trustedProxies: TrustedProxy[]; serverName: string | undefined } {
  const serverName = process.env.RACELAB_SERVER_NAME?.trim() || undefined;
  // It goes into a response header: letters, digits and a few marks only.
  if (serverName !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(serverName)) {
    console.error('racelab: RACELAB_SERVER_NAME must be 1 to 64 letters, digits, dots, dashes or underscores');
    process.exit(2);
  }
  try {
    return { trustedProxies: parseTrustedProxies(process.env.RACELAB_TRUSTED_PROXIES), serverName };
  } catch (error) {
    console.error(`racelab: ${(error as Error).message}`);
    process.exit(2);
  }
}

const runLimits = readRunLimits();
// A fixed budget for the room's PostgreSQL connections, where the database is shared with
// what racelab cannot see or should not count (a managed database's other tenants): unset,
// each server reads what PostgreSQL has free at every renewal (runs/connectionBudget.ts).
const connectionBudget = wholeNumberEnv('RACELAB_CONNECTION_BUDGET', 1) ?? true;

/** A whole number from `min` to 1000 in the environment variable `name`, or exit 2 when it is something else. */
function wholeNumberEnv(name: string, min: number): number | undefined {
  const text = process.env[name]?.trim();
  if (!text) return undefined;
  const n = Number(text);
  if (Number.isInteger(n) && n >= min && n <= 1000) return n;
  console.error(`racelab: ${name} must be a whole number from ${min} to 1000, got ${text}`);
  process.exit(2);
}

/** The run slots and the line's bound from the environment (defaults: limits.ts), or exit 2 when one is not a count. */
function readRunLimits(): Partial<SocketLimits> {
  const limits: Partial<SocketLimits> = {};
  const slots = wholeNumberEnv('RACELAB_RUN_SLOTS', 1);
  const queue = wholeNumberEnv('RACELAB_QUEUE_LENGTH', 0);
  limits.maxRunsPerServer = slots ?? runSlotsFor(os.availableParallelism());
  if (queue !== undefined) limits.maxQueuedPerServer = queue;
  return limits;
}

const roomToken = readRoomToken(options['room-token'] ?? process.env.RACELAB_ROOM_TOKEN);

/** The room view's token, or exit 2 when it is too short to keep a room's figures to its instructor. */
function readRoomToken(token: string | undefined): string | undefined {
  if (token === undefined || token.trim() === '') return undefined;
  if (token.length < MIN_TOKEN_LENGTH) {
    console.error(`racelab: the room token (RACELAB_ROOM_TOKEN or --room-token) must be ${MIN_TOKEN_LENGTH} characters at least\n${USAGE}`);
    process.exit(2);
  }
  return token;
}

/** The agent port's settings, or exit 2 with the reason before any service is touched. */
function readWorkerAgents(portText: string | undefined): { port: number; host: string; token: string } | undefined {
  if (portText === undefined || portText.trim() === '') return undefined;
  const port = Number(portText);
  const fail = (reason: string): never => {
    console.error(`racelab: ${reason}\n${USAGE}`);
    process.exit(2);
  };
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--worker-agents must be a port from 1 to 65535, got ${portText}`);
  const token = process.env.RACELAB_AGENT_TOKEN ?? '';
  if (token.length < MIN_TOKEN_LENGTH) {
    fail(`--worker-agents needs RACELAB_AGENT_TOKEN, the secret every agent must say (${MIN_TOKEN_LENGTH} characters at least)`);
  }
  const host = (options['worker-agents-host'] ?? process.env.RACELAB_WORKER_AGENTS_HOST)?.trim() || '127.0.0.1';
  return { port, host, token };
}

const port = Number(process.env.PORT ?? 7070);
// An empty HOST is no choice at all: it would bind every interface.
const host = process.env.HOST?.trim() || '127.0.0.1';
const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));
const exercises = exercisePolicy(host, allowExercises);

let services: Services;
try {
  services = await findServices({ exitHooks: false });
} catch (error) {
  console.error(`racelab: ${(error as Error).message}`);
  process.exit(1);
}
for (const line of describeServices(services)) console.log(`racelab: ${line}`);

let playground: Playground;
try {
  playground = await Playground.open({
    ...services,
    poolSize: Number(process.env.RACELAB_POOL_SIZE ?? 4),
    workerAgents,
    serverName,
    connectionBudget,
  });
} catch (error) {
  // The agent port taken, say: the stores this process started go with it.
  console.error(`racelab: ${(error as Error).message}`);
  await services.stop().catch(() => undefined);
  process.exit(1);
}
// Edited code's walls, opened before the first page can send any: said once, here and on the page.
const walls = exercises.allowed ? await exerciseConfinement(storesOf(services)).catch((error: Error) => error) : undefined;
const wallsWords = walls instanceof Error ? `not confined: ${walls.message}` : walls?.description.words;
const exercisesShown = wallsWords ? { ...exercises, why: `${exercises.why} (${wallsWords})` } : exercises;
const allowedHosts = parseAllowedHosts(process.env.RACELAB_ALLOWED_HOSTS);
const {
  http: server,
  sockets,
  room,
} = createAppServer(playground, webRoot, {
  allowedHosts,
  limits: runLimits,
  room: roomToken ? { token: roomToken } : undefined,
  frameAncestors: process.env.RACELAB_FRAME_ANCESTORS,
  exercises: exercisesShown,
  trustedProxies,
  serverName,
  ownLocks: allowOwnLocks
    ? { cli: fileURLToPath(new URL('./cli.js', import.meta.url)), redisUrl: services.redisUrl, databaseUrl: services.databaseUrl }
    : undefined,
});
server.listen(port, host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address : { address: host, port };
  const shownHost = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  console.log(`racelab: playground on http://${shownHost}:${bound.port}`);
  if (!['127.0.0.1', '::1', 'localhost'].includes(host)) {
    console.log('racelab: listening beyond this machine: anyone who can reach it can start runs');
  }
  console.log(`racelab: exercises: ${exercises.why}`);
  if (wallsWords) console.log(`racelab: edited code: ${wallsWords}`);
  if (trustedProxies.length > 0) {
    console.log(`racelab: pages behind the trusted proxies (${process.env.RACELAB_TRUSTED_PROXIES}) are counted by their X-Forwarded-For`);
  }
  if (room) console.log(`racelab: the room view is on: /room?token=… (this server is ${room.id} in the room)`);
  if (allowOwnLocks) console.log('racelab: --allow-own-locks: lock modules uploaded from the page run on this machine');
  if (playground.agents) {
    const { host: agentHost, port: agentPort } = playground.agents;
    console.log(
      `racelab: worker agents on ${agentHost.includes(':') ? `[${agentHost}]` : agentHost}:${agentPort}: runs take their workers from the agents connected, or fork them here while none is`,
    );
  }
});

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) {
    console.log(`racelab: ${signal}: already stopping; it takes a few seconds at most`);
    return;
  }
  stopping = true;
  console.log(`racelab: ${signal}: stopping runs, workers and services`);
  let code = 0;
  try {
    server.close();
    // Out of the room at once rather than when its figures expire.
    await room?.close();
    // Cancels the runs, waits for them to clean up and tell their pages, closes the sockets.
    await sockets.close('the server is stopping');
    await playground.close();
    await closeExerciseConfinement();
  } catch (error) {
    console.error(`racelab: stopping: ${playground.redact(String(error))}`);
    code = 1;
  }
  await services.stop().catch(() => (code = 1));
  process.exit(code);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
