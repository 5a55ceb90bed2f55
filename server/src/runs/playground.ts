// Everything a run needs, opened once per server (or CLI call, or test file): the
// catalog, a warm worker pool, and the server's own Redis and PostgreSQL connections.
import { Redis } from 'ioredis';
import pg from 'pg';
import { resolveParams, type FaultRule } from '@racelab/shared';
import { loadCatalog, type Catalog } from '../scenarios/registry.js';
import { KeyspaceEvents } from './keyspaceEvents.js';
import { Run } from './run.js';
import { WorkerPool } from './workerPool.js';

export interface PlaygroundOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Worker processes kept warm; a run that needs more forks the rest. */
  poolSize?: number;
}

export interface StartRequest {
  scenario: string;
  variant: string;
  /** Unvalidated, as a page or the CLI sent them. */
  params: Record<string, unknown>;
  faults?: FaultRule[];
  /** Time scale, already bounded by the protocol. */
  speed?: number;
}

export type Started = { ok: true; run: Run } | { ok: false; error: string };

export class Playground {
  private constructor(
    readonly catalog: Catalog,
    readonly redis: Redis,
    readonly pg: pg.Pool,
    readonly pool: WorkerPool,
    readonly keyspace: KeyspaceEvents | null,
  ) {}

  /** Connects to the stores and warms the worker pool. */
  static async open(options: PlaygroundOptions): Promise<Playground> {
    const catalog = await loadCatalog();
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, connectionName: 'racelab-server' });
    redis.on('error', () => {
      // Surfaces through the command that fails; the server must keep serving.
    });
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, application_name: 'racelab-server' });
    pool.on('error', () => {
      // An idle client lost its backend; the pool replaces it.
    });
    await Promise.all([redis.ping(), pool.query('select 1')]);
    const keyspace = await KeyspaceEvents.open(options.redisUrl, redis, (line) => console.error(`racelab: ${line}`));
    const workers = new WorkerPool({
      redisUrl: options.redisUrl,
      databaseUrl: options.databaseUrl,
      size: options.poolSize ?? 4,
    });
    return new Playground(catalog, redis, pool, workers, keyspace);
  }

  /** Validates a request against the catalog and creates its run (not yet started). */
  prepare(request: StartRequest): Started {
    const scenario = this.catalog.scenarios.get(request.scenario);
    if (!scenario) {
      const known = [...this.catalog.scenarios.keys()].join(', ');
      return { ok: false, error: `unknown scenario '${request.scenario}'; known: ${known}` };
    }
    if (!scenario.variants.some((v) => v.id === request.variant)) {
      const known = scenario.variants.map((v) => v.id).join(', ');
      return { ok: false, error: `unknown variant '${request.variant}' of ${scenario.id}; known: ${known}` };
    }
    const manifest = this.catalog.manifests.find((m) => m.id === scenario.id)!;
    const params = resolveParams(manifest, request.variant, request.params);
    if (!params.ok) return params;
    const variant = manifest.variants.find((v) => v.id === request.variant)!;
    const workerIds = scenario.workers(params.params);
    for (const fault of request.faults ?? []) {
      if (!variant.checkpoints.includes(fault.checkpoint)) {
        const known = variant.checkpoints.join(', ') || 'none';
        return { ok: false, error: `unknown checkpoint '${fault.checkpoint}' of ${variant.id}; known: ${known}` };
      }
      if (fault.target !== 'first' && !workerIds.includes(fault.target)) {
        return { ok: false, error: `fault target '${fault.target}' is not 'first' or a worker of this run (${workerIds.join(', ')})` };
      }
      if (fault.action === 'stall' && fault.ms === undefined) {
        return { ok: false, error: `a stall at '${fault.checkpoint}' needs its length in ms` };
      }
    }
    const run = new Run(
      { scenario, variantId: request.variant, params: params.params, faults: request.faults, speed: request.speed },
      { pool: this.pool, redis: this.redis, pg: this.pg, keyspace: this.keyspace },
    );
    return { ok: true, run };
  }

  /** Stops the worker pool and closes the connections. */
  async close(): Promise<void> {
    await this.pool.close();
    this.keyspace?.close();
    this.redis.disconnect();
    await this.pg.end();
  }
}
