import net from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { describeServices, findServices } from './index.js';
import { recordingDocker, stoppedDocker, withFakeDocker } from '../testing/fakeDocker.js';
import { freePort } from './freePort.js';

const REAL_REDIS = 'redis://127.0.0.1:6379';
const REAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

// A URL on a port nothing listens on (free now, and nobody here listens on it).
async function closedUrls(): Promise<{ redis: string; pg: string; redisPort: number; pgPort: number }> {
  const redisPort = await freePort();
  const pgPort = await freePort();
  return {
    redis: `redis://:redispw@127.0.0.1:${redisPort}`,
    pg: `postgres://postgres:pgpw@127.0.0.1:${pgPort}/postgres`,
    redisPort,
    pgPort,
  };
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('findServices', () => {
  it('uses REDIS_URL and DATABASE_URL when they are set and reachable', async () => {
    const lines: string[] = [];
    const services = await findServices({
      env: { REDIS_URL: REAL_REDIS, DATABASE_URL: REAL_PG },
      log: (line) => lines.push(line),
    });
    expect(services).toMatchObject({ redisUrl: REAL_REDIS, databaseUrl: REAL_PG, redisSource: 'env', postgresSource: 'env' });
    expect(services.tempDirs).toEqual([]);
    expect(lines).toEqual([]);
    await services.stop();
  });

  it('uses the 127.0.0.1 defaults when nothing is set', async () => {
    const services = await findServices({ env: {}, log: () => {} });
    expect(services).toMatchObject({ redisUrl: REAL_REDIS, databaseUrl: REAL_PG, redisSource: 'default', postgresSource: 'default' });
    expect(describeServices(services)).toEqual([`redis: ${REAL_REDIS} (default)`, `postgres: ${REAL_PG} (default)`]);
    await services.stop();
  });

  it('starts embedded Redis and PostgreSQL when nothing is set and the defaults are off, and stop() removes them', async () => {
    const lines: string[] = [];
    const signalListeners = process.listenerCount('SIGTERM');
    const services = await findServices({
      env: {},
      defaults: false,
      docker: false,
      log: (line) => lines.push(line),
    });
    try {
      expect(services.redisSource).toBe('embedded');
      expect(services.postgresSource).toBe('embedded');
      for (const line of describeServices(services)) expect(line).not.toMatch(/postgres:[0-9a-f]{8,}@/);
      expect(services.tempDirs).toHaveLength(2);
      for (const dir of services.tempDirs) expect(existsSync(dir)).toBe(true);

      const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: 0 });
      try {
        await redis.set('racelab:probe', 'hello');
        expect(await redis.get('racelab:probe')).toBe('hello');
      } finally {
        redis.disconnect();
      }

      const client = new pg.Client({ connectionString: services.databaseUrl });
      await client.connect();
      try {
        await client.query('create table t (id int primary key, name text)');
        await client.query('insert into t values (1, $1)', ['one']);
        const { rows } = await client.query('select name from t where id = 1');
        expect(rows).toEqual([{ name: 'one' }]);
      } finally {
        await client.end();
      }
    } finally {
      await services.stop();
    }

    expect(await connectionRefused(portOf(services.redisUrl))).toBe(true);
    expect(await connectionRefused(portOf(services.databaseUrl))).toBe(true);
    for (const dir of services.tempDirs) expect(existsSync(dir)).toBe(false);
    expect(process.listenerCount('SIGTERM')).toBe(signalListeners);
    await services.stop(); // idempotent
  });

  it('throws naming what was tried and what to install when nothing works', async () => {
    const error = await findServices({
      env: {},
      defaults: false,
      embedded: false,
      docker: false,
      log: () => {},
    }).then(
      () => null,
      (err: Error) => err,
    );
    expect(error).toBeInstanceOf(Error);
    const message = error!.message;
    expect(message).toContain('Could not find or start redis and postgres');
    expect(message).toContain('REDIS_URL (not set)');
    expect(message).toContain('DATABASE_URL (not set)');
    expect(message).toContain('apt-get install redis-server');
    expect(message).toContain('set DATABASE_URL');
  });

  it('never replaces a URL that is set and does not answer: it throws saying so, and starts nothing in its place', async () => {
    const closed = await closedUrls();
    const lines: string[] = [];
    const error = await findServices({
      env: { REDIS_URL: closed.redis, DATABASE_URL: closed.pg },
      docker: false,
      log: (line) => lines.push(line),
    }).then(
      () => null,
      (err: Error) => err,
    );
    expect(error).toBeInstanceOf(Error);
    const message = error!.message;
    expect(message).toContain(`REDIS_URL=redis://:***@127.0.0.1:${closed.redisPort} does not answer (ECONNREFUSED)`);
    expect(message).toContain(`DATABASE_URL=postgres://postgres:***@127.0.0.1:${closed.pgPort}/postgres does not answer (ECONNREFUSED)`);
    expect(message).toContain('no other is tried in its place');
    expect(message).not.toMatch(/redispw|pgpw/);
    // Neither the defaults (which answer here) nor an embedded store was tried.
    expect(lines).toEqual([]);
  });

  it('uses the URL that is set and answers, and refuses the one that does not, without looking further', async () => {
    const closed = await closedUrls();
    const error = await findServices({
      env: { REDIS_URL: REAL_REDIS, DATABASE_URL: closed.pg },
      log: () => {},
    }).then(
      () => null,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(
      /^DATABASE_URL=postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres does not answer \(ECONNREFUSED\)\./,
    );
    expect(error?.message).not.toContain('REDIS_URL');
  });

  it('starts only the store that is missing', async () => {
    const services = await findServices({
      env: { DATABASE_URL: REAL_PG },
      defaults: false,
      docker: false,
      log: () => {},
    });
    try {
      expect(services.redisSource).toBe('embedded');
      expect(services.postgresSource).toBe('env');
      expect(services.tempDirs).toHaveLength(1);
    } finally {
      await services.stop();
    }
    expect(await connectionRefused(portOf(services.redisUrl))).toBe(true);
  });

  // No Docker engine runs here: a stand-in `docker` on the PATH records what it was asked to do. Compose
  // would publish on the default ports, where the real Redis/Postgres already answer.
  it('runs docker compose up -d with the repo compose file when a Docker engine answers', async () => {
    await withFakeDocker(recordingDocker, async (calls) => {
      const lines: string[] = [];
      const services = await findServices({
        env: {},
        defaults: false,
        embedded: false,
        log: (line) => lines.push(line),
      });
      expect(services).toMatchObject({ redisUrl: REAL_REDIS, databaseUrl: REAL_PG, redisSource: 'docker', postgresSource: 'docker' });
      const composeFile = path.resolve(import.meta.dirname, '../../../docker-compose.yml');
      expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual([
        'info --format {{.ServerVersion}}',
        `compose -f ${composeFile} up -d redis redis-replica postgres`,
      ]);
      expect(lines.some((line) => line.includes('docker compose'))).toBe(true);
      await services.stop();
    });
  });

  it('says why docker was not used when no engine answers', async () => {
    await withFakeDocker(stoppedDocker, async () => {
      const error = await findServices({
        env: {},
        defaults: false,
        embedded: false,
        log: () => {},
      }).then(
        () => null,
        (err: Error) => err,
      );
      expect(error?.message).toContain('docker compose (no Docker engine running (docker info failed))');
    });
  });
});
