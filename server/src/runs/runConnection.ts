// A run's own PostgreSQL connection (application_name "racelab-server run_<id>", search_path
// the run's schema): a backend terminated under one run ends that run and no other. Made
// fresh, or adopted from the spare made before the run.
import pg from 'pg';
import { SERVER_SESSION_OPTIONS } from './serverConnections.js';

export interface RunConnectionOptions {
  /** The run's connection goes there; where the pool connects when absent. */
  databaseUrl?: string;
  /** How long one statement on the run's connection may take, in ms; PostgreSQL cancels it past that. */
  statementTimeoutMs?: number;
  /** The run's own PostgreSQL connection was lost (backend terminated, server restarted). */
  onLost(error: Error): void;
}

/** PostgreSQL's code for a statement cancelled (by statement_timeout here: the run cancels nothing itself). */
const QUERY_CANCELED = '57014';

/** A statement past the run's statement timeout, in words that say which and why. */
export function timedOut(error: unknown, text: string, ms: number | undefined): unknown {
  if ((error as { code?: string }).code !== QUERY_CANCELED || ms === undefined) return error;
  const statement = text.replace(/\s+/g, ' ').trim();
  const shown = statement.length > 60 ? `${statement.slice(0, 60)}…` : statement;
  return new Error(`a PostgreSQL statement of the run took longer than ${ms} ms and was cancelled (statement_timeout): ${shown}`);
}

export class RunConnection {
  /** Once set, the connection's errors and its end are the run's own doing, not a loss. */
  private closing = false;
  private readonly name: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    runId: string,
    private readonly options: RunConnectionOptions,
  ) {
    this.name = `racelab-server run_${runId}`;
  }

  /** The spare adopted when there is one, else a fresh connection. */
  open(spare: pg.Client | null | undefined): Promise<pg.Client> {
    return spare ? this.adopt(spare) : this.connect();
  }

  /** Ends the run's connection on purpose. */
  end(client: pg.Client): Promise<void> {
    this.closing = true;
    return client.end();
  }

  /** Ends the connection still being opened, whenever it is, on purpose; never rejects. */
  abandon(connecting: Promise<pg.Client>): void {
    this.closing = true;
    void connecting.then((client) => client.end()).catch(() => undefined);
  }

  /** Reports the loss of `client` to the run, unless the run is closing it. */
  private own(client: pg.Client): pg.Client {
    client.on('error', (error) => {
      if (!this.closing) this.options.onLost(error);
    });
    client.on('end', () => {
      if (!this.closing) this.options.onLost(new Error('the connection ended'));
    });
    return client;
  }

  private async connect(): Promise<pg.Client> {
    const client = this.own(
      new pg.Client({
        ...(this.options.databaseUrl ? { connectionString: this.options.databaseUrl } : this.pool.options),
        application_name: this.name,
        options: SERVER_SESSION_OPTIONS,
        statement_timeout: this.options.statementTimeoutMs,
      }),
    );
    try {
      await client.connect();
      await client.query(`set search_path to ${this.schema}`);
      return client;
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
  }

  /** The spare, named for this run; a fresh connection when the spare turns out dead. */
  private async adopt(spare: pg.Client): Promise<pg.Client> {
    const dying = (): void => undefined; // a dead spare's errors: its query fails, and that says enough
    spare.on('error', dying);
    try {
      // One round trip; the name is what an operator (and pg_stat_activity) sees.
      const ms = this.options.statementTimeoutMs;
      const timeout = ms === undefined ? '' : `; set statement_timeout to ${Math.round(ms)}`;
      await spare.query(`set search_path to ${this.schema}; set application_name to '${this.name}'${timeout}`);
      spare.off('error', dying);
      return this.own(spare);
    } catch {
      void spare.end().catch(() => undefined);
      return this.connect();
    }
  }
}
