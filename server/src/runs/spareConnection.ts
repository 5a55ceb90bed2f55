// The next run's own PostgreSQL connection, made before that run asks for it. A new
// connection costs a backend fork, a startup exchange and a round trip (about 3 ms here),
// on the critical path of a run's start; the spare is made between runs instead, as the
// worker pool forks its processes between runs. A run takes it only when it is connected
// and alive; otherwise the run connects its own, as it would with no spare at all.
import pg from 'pg';

/** The spare being made or ready; once lost (or taken) it is no longer the pool's `spare`. */
interface Spare {
  client: pg.Client;
  connected: boolean;
}

export class SpareConnection {
  private spare: Spare | null = null;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    /** Its application_name until a run renames it. */
    private readonly name = 'racelab-server spare',
  ) {}

  /** What the spare is: none (taken, lost or never made), connecting, or ready to be taken. */
  get state(): 'none' | 'connecting' | 'ready' {
    return !this.spare ? 'none' : this.spare.connected ? 'ready' : 'connecting';
  }

  /** Starts connecting the next spare, unless one is there (or on its way). */
  refill(): void {
    if (this.closed || this.spare) return;
    const spare: Spare = { client: new pg.Client({ ...this.config, application_name: this.name }), connected: false };
    const lose = (): void => {
      if (this.spare === spare) this.spare = null;
    };
    // An idle spare whose backend goes (a restart) is dropped; the next refill makes another.
    spare.client.on('error', lose);
    spare.client.on('end', lose);
    this.spare = spare;
    spare.client.connect().then(() => {
      spare.connected = true;
      if (this.closed) void spare.client.end().catch(() => undefined);
    }, lose);
  }

  /** The spare, connected and alive, now its taker's (listeners and all); null when there is none ready. */
  take(): pg.Client | null {
    const spare = this.spare;
    if (!spare || !spare.connected) return null;
    this.spare = null;
    spare.client.removeAllListeners('error');
    spare.client.removeAllListeners('end');
    return spare.client;
  }

  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = null;
    if (spare?.connected) await spare.client.end().catch(() => undefined);
  }
}
