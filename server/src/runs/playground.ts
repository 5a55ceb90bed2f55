// Everything a run needs, opened once per server (or CLI call, or test file): the
// catalog, a warm worker pool, and the server's own Redis and PostgreSQL connections.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { resolveParams, unavailableHere, unknownScenario, unknownVariant, type FaultRule, type Params } from '@racelab/shared';
import { AgentListener } from '../agents/agentListener.js';
import { whereabouts, type Whereabouts } from '../debris/lostRuns.js';
import { MY_LEASE, ServerLease } from '../debris/serverLease.js';
import { sweepDebris, sweptWords } from '../debris/sweep.js';
import type { LabMechanisms } from '../labnet/mechanisms.js';
import { catalogOn, findVariant, loadCatalog, type AnyScenario, type Catalog } from '../scenarios/registry.js';
import { variantForSetup } from '../scenarios/types.js';
import { KeyspaceEvents } from './keyspaceEvents.js';
import { secretRedactor, type Redactor } from './redact.js';
import { notAHost } from './linkFaults.js';
import { notANode } from './nodeIsolation.js';
import { Run } from './run.js';
import { CORE_STORES, POSTGRES_STORE, REDIS_STORE, type CoreStore } from '@racelab/shared';
import { goodbye, StoreWatch, type ProbeAnswer } from './storeWatch.js';
import { scaleDurations } from './runSpeed.js';
import {
  closeConnections,
  reachStores,
  SERVER_PG_POOL_SIZE,
  SERVER_SESSION_OPTIONS,
  serverConnections,
  unlessSilent,
  type ServerConnections,
} from './serverConnections.js';
import { ConnectionBudget } from './connectionBudget.js';
import { SpareConnection } from './spareConnection.js';
import { probeCredentials } from './credentialProbe.js';
import { NO_CREDENTIALS, type CredentialSupport } from './runCredentials.js';
import { WorkerPool } from './workerPool.js';
import type { OwnCode } from './ownCode.js';
import type { StepScheduler } from '../explore/stepScheduler.js';

export interface PlaygroundOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Worker processes kept warm; a run that needs more forks the rest. */
  poolSize?: number;
  /** The statement timeout of the server's own PostgreSQL connections, in ms (SERVER_STATEMENT_TIMEOUT_MS unless a test says). */
  statementTimeoutMs?: number;
  /** The command timeout of the server's own Redis connection, in ms (SERVER_REDIS_COMMAND_TIMEOUT_MS unless a test says). */
  redisCommandTimeoutMs?: number;
  /** The real network and clock mechanisms runs may use; the machine's (labnet/mechanisms.ts) unless a test forces the fallback. */
  labMechanisms?: LabMechanisms;
  /**
   * Takes workers from worker agents on other hosts (`--worker-agents <port>`): listens for
   * them on `host` (127.0.0.1 unless told) and `port` (0: a free one), letting in those that
   * say `token`. Off when absent.
   */
  workerAgents?: { port: number; host?: string; token: string };
  /** This server's name among several (RACELAB_SERVER_NAME): a page whose run died with this server is told it. */
  serverName?: string;
  /**
   * Reserves each page's run's PostgreSQL connections in the budget every server sharing the
   * database shares (connectionBudget.ts) before it starts: a serving server's. Off when absent.
   * A number is the room's budget, fixed (RACELAB_CONNECTION_BUDGET), instead of what
   * PostgreSQL has free at each renewal.
   */
  connectionBudget?: boolean | number;
}

/** The server's own PostgreSQL connections whatever runs it has: its pool, its store watch's, its spare. */
const SERVER_OWN_CONNECTIONS = SERVER_PG_POOL_SIZE + 2;

export interface StartRequest {
  scenario: string;
  variant: string;
  /** Unvalidated, as a page or the CLI sent them. */
  params: Record<string, unknown>;
  faults?: FaultRule[];
  /** Time scale, already bounded by the protocol. */
  speed?: number;
  /** Overrides the scenario's deadline, in ms: for tests of the deadline, never from a page. */
  deadlineMs?: number;
  /** Lets the variant be one of the scenario's mutants: tests and the stability pass, never a page. */
  mutants?: boolean;
  /** Code that is not racelab's, played as the variant `request.variant` (an exercise's edited code: runs/ownCode.ts). */
  ownCode?: OwnCode;
  /** An explored run: this scheduler, not the scenario's choreography, orders the workers' steps. */
  scheduler?: StepScheduler;
}

/** The longest a run may last once started (its deadline at most), in ms: no parameters hold the server's slots for hours. */
export const MAX_RUN_MS = 5 * 60_000;

/** How often a serving playground sweeps what runs left behind, in ms. */
const SWEEP_EVERY_MS = 60_000;

export type Started = { ok: true; run: Run } | { ok: false; error: string };

/** What kind of code a run plays: a correct or broken variant of the catalog, a near-miss mutant, or an exercise's edited code. */
export type RunKind = 'correct' | 'broken' | 'mutant' | 'exercise';

/** Told of every run the playground makes, before it starts (metrics: http/serverMetrics.ts). */
export type RunListener = (run: Run, about: { scenario: string; kind: RunKind }) => void;

export class Playground {
  /** Runs going right now (started, not yet settled). */
  readonly running = new Set<Run>();
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;
  /** The sweep going, if any: the stores are not closed under it. */
  private sweeping: Promise<void> | null = null;
  /** Which stores give each run users of its own: found once, before the first run. */
  private credentialSupport: CredentialSupport = NO_CREDENTIALS;
  private readonly runListeners = new Set<RunListener>();
  private readonly goneListeners = new Set<() => void>();
  /** This process's lease in Redis while it serves (debris/serverLease.ts); null where Redis would not take it. */
  private lease: ServerLease | null = null;
  /** The connections this server reserves for its runs in the room's budget; null when it keeps none. */
  budget: ConnectionBudget | null = null;

  private constructor(
    readonly catalog: Catalog,
    readonly redis: Redis,
    readonly pg: pg.Pool,
    readonly pool: WorkerPool,
    readonly keyspace: KeyspaceEvents | null,
    /** The next run's own PostgreSQL connection, made between runs. */
    private readonly spare: SpareConnection,
    private readonly databaseUrl: string,
    /** Hides the stores' URLs and passwords in any text for a page or the log. */
    readonly redact: Redactor,
    /** The worker agents' port, when the server takes workers from agents. */
    readonly agents: AgentListener | null,
    /** Pings both stores while runs go (and while the playground opens): a frozen store closes nothing. */
    private readonly watch: StoreWatch,
  ) {
    // Redis went away (restarted, stopped, or closed our connection): every key of every
    // run going is gone or out of reach, so those runs end now with the reason. ioredis
    // reconnects by itself for the next run; warm workers hold connections to the old
    // server and are replaced.
    let lostAt = 0;
    const lost = (why: string): void => {
      if (this.closed) return;
      for (const run of this.running) {
        run.cancel(`Redis closed the connection during the run (${why}); the run's keys are gone, so its numbers would mean nothing`);
      }
      if (Date.now() - lostAt > 1000) pool.recycle();
      lostAt = Date.now();
    };
    redis.on('close', () => lost('restarted or stopped'));
    keyspace?.onLost(() => lost('restarted or stopped'));
    // A run whose clean-up could not finish (a store down longer than its retries) is taken
    // by the next sweep, as is whatever a crashed racelab process left.
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  /** Which stores give each run users of its own (a Redis ACL user, a PostgreSQL role). */
  get credentials(): CredentialSupport {
    return this.credentialSupport;
  }

  /** True once a store has gone silent and not answered since: its connections may never close. */
  get storeSilent(): boolean {
    return this.watch.isSilent();
  }

  /** Tells `listener` of every run made from now on; returns the unsubscribe. */
  onRun(listener: RunListener): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  /** Asks both stores now on the store watch's connections, waiting at most `timeoutMs` (readiness: http/health.ts). */
  async probeStores(timeoutMs: number): Promise<Record<CoreStore, ProbeAnswer>> {
    const [redis, postgres] = await Promise.all(CORE_STORES.map((store) => this.watch.probe(store, timeoutMs)));
    return { [REDIS_STORE]: redis!, [POSTGRES_STORE]: postgres! };
  }

  /** Tells `listener` the round trip of every ping the store watch gets answered, in ms; returns the unsubscribe. */
  onStoreRoundTrip(listener: (store: CoreStore, ms: number) => void): () => void {
    return this.watch.onRoundTrip(listener);
  }

  /** Another server sharing the stores died (its lease went): what it left is swept now, and the listeners told. */
  private serverGone(): void {
    if (this.closed) return;
    void this.sweep();
    for (const listener of this.goneListeners) listener();
  }

  /** Tells `listener` whenever another server sharing the stores is seen gone; returns the unsubscribe. */
  onServerGone(listener: () => void): () => void {
    this.goneListeners.add(listener);
    return () => this.goneListeners.delete(listener);
  }

  /** Whether a run this server does not hold was lost with the server that ran it (debris/lostRuns.ts). */
  whereabouts(runId: string): Promise<Whereabouts> {
    return whereabouts(this.redis, this.pg, runId);
  }

  /** Removes what runs of dead (or this) processes left; logs what it found, never throws. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /** Sweeps once the runs going now have settled: what their clean-up could not remove is theirs no longer. */
  async sweepAfterRuns(): Promise<void> {
    await Promise.all([...this.running].map((run) => run.settled));
    if (!this.closed) await this.sweep();
  }

  private async sweepOnce(): Promise<void> {
    try {
      const words = sweptWords(await sweepDebris(this.redis, this.pg));
      if (words) console.error(`racelab: ${words}`);
    } catch (error) {
      console.error(`racelab: sweeping what earlier runs left failed (tried again in a minute): ${this.redact(String(error))}`);
    }
  }

  /** Connects to the stores and warms the worker pool. */
  static async open(options: PlaygroundOptions): Promise<Playground> {
    const loaded = await loadCatalog();
    const redact = secretRedactor([options.redisUrl, options.databaseUrl]);
    const log = (line: string): void => console.error(`racelab: ${redact(line)}`);
    const connections = serverConnections(options, log);
    const { redis, pool } = connections;
    const opening: Opening = { going: true };
    const watch = watchStores(connections, opening);
    await reachStores(watch, connections);
    // What this Redis can run is asked once, here: a variant needing a command it lacks is listed unavailable.
    const catalog = await catalogOn(loaded, redis);
    const keyspace = await KeyspaceEvents.open(options.redisUrl, redis, log);
    const agents = await openAgents(options, redact, log).catch(async (error: unknown) => {
      keyspace?.close();
      await closeConnections(watch, connections);
      throw error;
    });
    const workers = new WorkerPool({
      redisUrl: options.redisUrl,
      databaseUrl: options.databaseUrl,
      size: options.poolSize ?? 4,
      redact,
      labMechanisms: options.labMechanisms,
      ...(agents ? { agents } : {}),
    });
    const spare = new SpareConnection({ connectionString: options.databaseUrl, options: SERVER_SESSION_OPTIONS });
    spare.refill();
    const playground = new Playground(catalog, redis, pool, workers, keyspace, spare, options.databaseUrl, redact, agents, watch);
    opening.playground = playground;
    await playground.holdLease(options.serverName);
    await playground.beforeFirstRun(opening, options);
    if (options.connectionBudget !== undefined && options.connectionBudget !== false) {
      const limit = options.connectionBudget === true ? undefined : options.connectionBudget;
      await playground.reserveBaseline(options.poolSize ?? 4, limit);
    }
    return playground;
  }

  /** Writes this server's own connections (and its warm workers') into the room's budget, renewed with its lease. */
  private async reserveBaseline(warmWorkers: number, limit: number | undefined): Promise<void> {
    try {
      const baseline = SERVER_OWN_CONNECTIONS + warmWorkers;
      this.budget = await ConnectionBudget.open(this.redis, this.pg, {
        name: MY_LEASE,
        baseline,
        ...(limit === undefined ? {} : { limit }),
      });
    } catch (error) {
      await this.close('the connection budget could not be read', 0);
      throw error;
    }
  }

  /** Takes this process's lease before any run registers; another server's lease gone (it died) sweeps what it left at once. */
  private async holdLease(name: string | undefined): Promise<void> {
    try {
      this.lease = await ServerLease.hold(this.redis, { name, onGone: () => this.serverGone() });
    } catch (error) {
      console.error(`racelab: no lease in Redis (another machine cannot tell when this server dies): ${this.redact(String(error))}`);
    }
  }

  /**
   * Before the first run: what a crashed server left (keys, schemas, store users, stopped
   * workers, lab processes) goes, and the stores are asked whether runs may have users of
   * their own (a store that refuses is said once, here); a store silent meanwhile fails the opening.
   */
  private async beforeFirstRun(opening: Opening, urls: { redisUrl: string; databaseUrl: string }): Promise<void> {
    try {
      const [, probed] = await unlessSilent(
        this.watch,
        Promise.all([this.sweep(), probeCredentials({ redis: this.redis, pool: this.pg }, urls)]),
      );
      this.credentialSupport = probed.support;
      if (probed.refused) console.error(`racelab: ${this.redact(probed.refused)}`);
    } catch (error) {
      await this.close('a store went silent while the server opened', 0);
      throw error;
    } finally {
      opening.going = false;
    }
  }

  /** Validates a request against the catalog and creates its run (not yet started). */
  prepare(request: StartRequest): Started {
    const scenario = this.catalog.scenarios.get(request.scenario);
    if (!scenario) return { ok: false, error: unknownScenario(request.scenario, this.catalog.manifests) };
    const definition = request.ownCode?.variant ?? findVariant(scenario, request.variant, { mutants: request.mutants });
    if (!definition) return { ok: false, error: unknownVariant(request.variant, scenario) };
    const manifest = this.catalog.manifests.find((m) => m.id === scenario.id)!;
    const unavailable = unavailableHere(manifest, variantForSetup(definition));
    if (unavailable) return { ok: false, error: unavailable };
    // A mutant (or own code) is not in the manifest: its own defaults go under the caller's parameters.
    const isMutant = !scenario.variants.includes(definition);
    const params = resolveParams(manifest, request.variant, isMutant ? { ...definition.defaults, ...request.params } : request.params);
    if (!params.ok) return params;
    const refused = definition.refusedAt?.(params.params);
    if (refused) return { ok: false, error: refused };
    // A mutant's own defaults and checkpoints, as a variant's manifest would give them.
    const variant = manifest.variants.find((v) => v.id === request.variant) ?? {
      id: definition.id,
      checkpoints: definition.checkpoints ?? [],
    };
    // A scenario's deadline is its worst case (token-stampede's lock-only, one refresh after
    // another, at 5,000 requests: 17 min); no run holds the server's slots past MAX_RUN_MS.
    const deadlineMs =
      request.deadlineMs ?? Math.min(scenario.deadlineMs(scaleDurations(scenario.params, params.params, request.speed ?? 1)), MAX_RUN_MS);
    const workerIds = scenario.workers(params.params);
    const stranger = request.scheduler?.choices.find((c) => !workerIds.includes(c.worker));
    if (stranger) return { ok: false, error: `the schedule names ${stranger.worker}, not a worker of this run (${workerIds.join(', ')})` };
    for (const fault of request.faults ?? []) {
      const error = this.refusedFault(fault, scenario, variant, workerIds, params.params);
      if (error) return { ok: false, error };
    }
    const run = new Run(
      {
        scenario,
        variantId: request.variant,
        params: params.params,
        faults: request.faults,
        speed: request.speed,
        deadlineMs,
        ...(request.ownCode ? { ownCode: request.ownCode } : {}),
        ...(request.scheduler ? { scheduler: request.scheduler } : {}),
      },
      {
        pool: this.pool,
        redis: this.redis,
        pg: this.pg,
        keyspace: this.keyspace,
        databaseUrl: this.databaseUrl,
        spare: this.spare,
        running: this.running,
        redact: this.redact,
        silence: this.watch,
        credentials: this.credentialSupport,
      },
    );
    const kind: RunKind = request.ownCode ? 'exercise' : isMutant ? 'mutant' : definition.correct ? 'correct' : 'broken';
    for (const listener of this.runListeners) listener(run, { scenario: scenario.id, kind });
    return { ok: true, run };
  }

  /** Why a fault of a request's plan cannot be played in this run, or nothing when it can. */
  private refusedFault(
    fault: FaultRule,
    scenario: AnyScenario,
    variant: { id: string; checkpoints: string[] },
    workerIds: string[],
    params: Params,
  ): string | undefined {
    if (!variant.checkpoints.includes(fault.checkpoint)) {
      const known = variant.checkpoints.join(', ') || 'none';
      return `unknown checkpoint '${fault.checkpoint}' of ${variant.id}; known: ${known}`;
    }
    if (fault.target !== 'first' && !workerIds.includes(fault.target)) {
      return `fault target '${fault.target}' is not 'first' or a worker of this run (${workerIds.join(', ')})`;
    }
    if (fault.action === 'stall' && fault.ms === undefined) {
      return `a stall at '${fault.checkpoint}' needs its length in ms`;
    }
    // A partition cuts a lab host's link: only a scenario whose workers are hosts, on a machine with namespaces.
    if (fault.action === 'partition' && !(scenario.lab?.(params).network && this.pool.labMechanisms.namespaces)) {
      return `a partition at '${fault.checkpoint}': ${notAHost(fault.target === 'first' ? 'the first worker' : fault.target)}`;
    }
    // An isolate cuts a node the workers reach over the lab's network (its names are the fixture's, checked when it strikes).
    if (fault.action === 'isolate' && !scenario.lab?.(params).network) {
      return `an isolate at '${fault.checkpoint}': ${notANode(fault.node ?? '', [])}`;
    }
    // So does a slow: it delays what the workers and a node send each other over that network.
    if (fault.action === 'slow' && !scenario.lab?.(params).network) {
      return `a slow at '${fault.checkpoint}': ${notANode(fault.node ?? '', [], 'slow')}`;
    }
    return undefined;
  }

  /** Cancels every run going; each still ends and cleans up after itself. */
  cancelAll(reason: string): void {
    for (const run of this.running) run.cancel(reason);
  }

  /** Cancels the runs still going, waits (up to `graceMs`) for them to clean up, then stops the worker pool and closes the connections. */
  async close(reason = 'the server is stopping', graceMs = 5000): Promise<void> {
    this.cancelAll(reason);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.running].map((run) => run.settled)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    clearInterval(this.sweeper);
    this.closed = true;
    // Its runs have settled (or are left registered for a sweep): nothing of them is this lease's any more.
    if (!this.watch.isSilent(REDIS_STORE)) await this.budget?.close();
    else void this.budget?.close();
    if (!this.watch.isSilent(REDIS_STORE)) await this.lease?.release();
    else void this.lease?.release();
    // No new command after this: a clean-up still going (past its grace) stops where it is and
    // leaves the rest registered for the next sweep, instead of using a pool that has ended.
    const silent = { redis: this.watch.isSilent(REDIS_STORE), pg: this.watch.isSilent(POSTGRES_STORE) };
    this.watch.closeStores(reason);
    await Promise.all([this.pool.close(), goodbye(this.spare.close(), silent.pg), this.watch.stop()]);
    if (!silent.redis && !silent.pg) await this.sweeping;
    // Once the pool has no worker left on them: the agents kill whatever they still run when the connection goes.
    await this.agents?.close(reason);
    this.keyspace?.close();
    this.redis.disconnect();
    await goodbye(this.pg.end(), silent.pg);
  }
}

/** A playground being opened: the store watch counts it as busy until it is open. */
interface Opening {
  going: boolean;
  playground?: Playground;
}

/**
 * A store that freezes (SIGSTOP, a full disk) closes nothing: only its silence tells. Watched
 * from here on while the playground opens, then while runs go.
 */
function watchStores({ redis, pool }: ServerConnections, opening: Opening): StoreWatch {
  return new StoreWatch({
    redis,
    pg: pool,
    busy: () => opening.going || (opening.playground?.running.size ?? 0) > 0,
    onSilent: (reason) => {
      console.error(`racelab: ${reason}; ending the runs going`);
      opening.playground?.cancelAll(reason);
    },
    // What the runs it ended left in it (registered) goes once they have settled.
    onAnswered: () => void opening.playground?.sweepAfterRuns(),
  });
}

/** The listener for worker agents on other hosts, when the options ask for one. */
async function openAgents(options: PlaygroundOptions, redact: Redactor, log: (line: string) => void): Promise<AgentListener | null> {
  if (!options.workerAgents) return null;
  return AgentListener.open({
    ...options.workerAgents,
    stores: { redisUrl: options.redisUrl, databaseUrl: options.databaseUrl },
    redact,
    log,
  });
}
