// PostgreSQL's connections while the room runs, once a second: how many clients it has (and
// how many of them are not racelab's), against max_connections, and what the room's servers
// have reserved in their shared budget (the server's runs/connectionBudget.ts). The peaks say
// how close the room came to PostgreSQL's wall.
import { Redis } from 'ioredis';
import pg from 'pg';
import { BUDGET_PREFIX } from '@racelab/server';

export interface ConnectionPeaks {
  maxConnections: number;
  /** Client connections at the busiest sample, and the most not named racelab at any. */
  peakClients: number;
  peakOutsiders: number;
  /** The most the servers had reserved at once. */
  peakReserved: number;
  samples: number;
}

const EVERY_MS = 1000;

export class ConnectionSampler {
  private readonly redis: Redis;
  private readonly pool: pg.Pool;
  private readonly timer: NodeJS.Timeout;
  private peaks: ConnectionPeaks = { maxConnections: 0, peakClients: 0, peakOutsiders: 0, peakReserved: 0, samples: 0 };
  private sampling: Promise<void> = Promise.resolve();

  constructor(stores: { redisUrl: string; databaseUrl: string }) {
    this.redis = new Redis(stores.redisUrl, { maxRetriesPerRequest: 1 });
    this.redis.on('error', () => undefined);
    this.pool = new pg.Pool({ connectionString: stores.databaseUrl, max: 1, application_name: 'racelab-room sampler' });
    this.pool.on('error', () => undefined);
    this.timer = setInterval(() => {
      this.sampling = this.sample().catch(() => undefined);
    }, EVERY_MS);
  }

  private async sample(): Promise<void> {
    const [{ rows }, held] = await Promise.all([
      this.pool.query<{ max: number; clients: number; outsiders: number }>(
        `select current_setting('max_connections')::int as max, count(*)::int as clients,
                (count(*) filter (where application_name not like 'racelab%'))::int as outsiders
           from pg_stat_activity where backend_type = 'client backend'`,
      ),
      this.redis.hvals(`${BUDGET_PREFIX}held`),
    ]);
    const row = rows[0]!;
    const p = this.peaks;
    this.peaks = {
      maxConnections: row.max,
      peakClients: Math.max(p.peakClients, row.clients),
      peakOutsiders: Math.max(p.peakOutsiders, row.outsiders),
      peakReserved: Math.max(
        p.peakReserved,
        held.reduce((sum, n) => sum + Number(n), 0),
      ),
      samples: p.samples + 1,
    };
  }

  async stop(): Promise<ConnectionPeaks> {
    clearInterval(this.timer);
    await this.sampling;
    this.redis.disconnect();
    await this.pool.end();
    return this.peaks;
  }
}
