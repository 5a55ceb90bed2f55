// A warm pool of worker processes: forked from built JavaScript, connected to Redis and
// PostgreSQL and with every scenario loaded before a run asks for them. A run of racelab's
// own catalog code borrows its processes (take's `lend`), and each may come back (`keep`)
// with fresh connections once its part ended well and nothing struck it (runs/runProcesses.ts,
// worker/workerMain.ts, runs/runSetting.ts keepsWorkers): the explorer plays schedule after schedule
// on the same processes, and a run saves the forks. Any other process serves one run and
// exits, so a run never inherits another's state (or its SIGSTOP).
// With worker agents (a server started with --worker-agents), the warm workers are the
// agents' whenever one is connected, and a run takes all its workers from them (never some
// here and some there); with none connected, the pool forks here as without agents. A run
// whose workers must be this server's own processes (a lab, a service on this machine's
// loopback: `onServer`) forks them here either way, and the log says so.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { own } from '../debris/ownedProcesses.js';
import { labMechanisms, type LabMechanisms } from '../labnet/mechanisms.js';
import { AgentsUnavailable, type AgentListener } from '../agents/agentListener.js';
import { RemoteWorker } from '../agents/remoteWorker.js';
import { WORKER_ENTRY, WORKER_EXEC_ARGV } from '../worker/entry.js';
import { STORE_FULL_EXIT_CODE } from '../worker/storeFullExit.js';
import { StoreFull } from './storeFull.js';
import type { FromWorker, WorkerProcess } from '../worker/ipc.js';

export interface WorkerPoolOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Processes kept warm between runs. */
  size: number;
  /** Worker entry script; the built worker's (worker/entry.ts) by default. */
  entry?: string;
  /** What the machine gives runs that start workers as lab hosts (takeFresh); looked at once when absent. */
  labMechanisms?: LabMechanisms;
  /** Every line a worker writes to stderr goes through it to the server's stderr. */
  redact?: (text: string) => string;
  /** The worker agents' port, when the server takes workers from agents (see the top of this file). */
  agents?: AgentListener;
}

/** Where a run's workers must run. */
export interface Placement {
  /** Why they must be this server's own processes, when they must (say, "token-stampede's token provider listens on this server's loopback"). */
  onServer?: string;
  /**
   * The run may give its workers back (an explored run: `keep`): until they come back or
   * exit they count as warm, so that the pool forks no replacements for them meanwhile.
   */
  lend?: boolean;
}

/**
 * How a process made for one run only starts, where a warm one will not do: inside a lab
 * host's network namespace (`wrap`, e.g. `ip netns exec …`, which execs in place, so the pid
 * and the IPC channel are the worker's), with its stores reached another way, or with a
 * preloaded library (libfaketime) in its environment.
 */
export interface WorkerLaunch {
  /** The command line that runs the given one (node and the entry) where it must run. */
  wrap?: (argv: string[]) => string[];
  /** Replaces the pool's store URLs for this process. */
  redisUrl?: string;
  databaseUrl?: string;
  /** Added to the process's environment. */
  env?: Record<string, string>;
}

/** Waits before forking again after a worker failed to start (a store is down), in ms: doubles up to the last. */
const RESPAWN_BACKOFF_MS = [250, 500, 1000, 2000, 5000];

export class WorkerPool {
  private readonly idle: WorkerProcess[] = [];
  private readonly live = new Set<WorkerProcess>();
  /** Replacements being forked (refill): a run waits for them before it starts. */
  private readonly refilling = new Set<Promise<unknown>>();
  /** Processes lent to explored runs, which may give them back: counted as warm until they come back or exit. */
  private readonly lent = new Set<WorkerProcess>();
  private closed = false;
  /** True once the pool has been full: from then on it is warm, runs taking its workers or not. */
  private filledOnce = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WorkerPoolOptions) {
    // An agent came or went: the warm workers move to where the next run takes them from.
    options.agents?.onChange(() => {
      for (const worker of this.idle.filter((w) => isRemote(w) !== this.fromAgents)) this.drop(worker);
      this.refill();
    });
    this.refill();
  }

  /** True while a run's workers come from agents: the server takes them from agents and one is connected. */
  get fromAgents(): boolean {
    return (this.options.agents?.count ?? 0) > 0;
  }

  /**
   * Hands out `count` ready processes, forking the ones the pool lacks. The pool does not
   * refill here: forking replacements while the run plays would take the CPU its workers
   * need. The run calls `replenish` when it is over, and the next run waits for the
   * replacements already being forked (a Node process starting up takes a core for
   * ~150 ms; on a busy machine a worker of a run sharing it could stall for longer than
   * its scenario's windows).
   */
  async take(count: number, placement: Placement = {}): Promise<WorkerProcess[]> {
    await this.refilled();
    if (this.closed) throw new Error('worker pool is closed');
    const remote = this.fromAgents && !placement.onServer;
    if (this.fromAgents && placement.onServer)
      this.log(`a run's workers are this server's own processes, not the agents': ${placement.onServer}`);
    // A warm process that has gone (its store connection broke, it was killed, its agent went) is not handed out.
    const usable = (w: WorkerProcess): boolean => isRemote(w) === remote && w.connected && w.exitCode === null && w.signalCode === null;
    const warm = this.idle.filter(usable).slice(0, count);
    for (const w of warm) this.idle.splice(this.idle.indexOf(w), 1);
    const lacking = count - warm.length;
    if (remote && this.options.agents!.freeSlots < lacking) {
      this.idle.push(...warm);
      const agents = this.options.agents!.agents.map((a) => `${a.name} ${a.workers} of ${a.slots}`).join(', ');
      throw new AgentsUnavailable(
        `the worker agents have ${this.options.agents!.freeSlots} free worker slots and this run needs ${lacking} more than the ${warm.length} warm ones (${agents}); try again in a moment, or start agents with more --slots`,
      );
    }
    const spawned = await Promise.allSettled(Array.from({ length: lacking }, () => (remote ? this.startRemote() : this.spawn())));
    const cold = spawned.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = spawned.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      // No half-handed-out set: the processes that did start go too.
      for (const child of [...warm, ...cold]) child.kill('SIGKILL');
      throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    }
    const taken = [...warm, ...cold];
    if (placement.lend && !remote) for (const child of taken) this.lent.add(child);
    return taken;
  }

  /**
   * Takes back a process lent to an explored run, its part over and its run's connections
   * closed: warm again once it has made fresh ones and says ready. False when the pool will
   * not have it (closed, or the process was not lent): it exits instead.
   */
  keep(worker: WorkerProcess): boolean {
    if (this.closed || !this.lent.delete(worker)) return false;
    let died = false;
    const back: Promise<unknown> = this.ready(worker)
      .then(() => {
        if (this.closed || this.idle.length >= this.options.size) worker.kill('SIGKILL');
        else this.idle.push(worker);
      })
      .catch(() => (died = true))
      .finally(() => {
        this.refilling.delete(back);
        if (died) this.refill();
      });
    this.refilling.add(back);
    return true;
  }

  /**
   * Starts one fresh process per launch, for a run that needs them made its way (see
   * WorkerLaunch); the warm processes stay for the runs that need none. All or nothing.
   */
  async takeFresh(launches: WorkerLaunch[], placement: Placement = {}): Promise<WorkerProcess[]> {
    await this.refilled();
    if (this.closed) throw new Error('worker pool is closed');
    if (this.fromAgents && placement.onServer)
      this.log(`a run's workers are this server's own processes, not the agents': ${placement.onServer}`);
    const spawned = await Promise.allSettled(launches.map((launch) => this.spawn(launch)));
    const failed = spawned.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      for (const s of spawned) if (s.status === 'fulfilled') s.value.kill('SIGKILL');
      throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    }
    return spawned.map((s) => (s as PromiseFulfilledResult<WorkerProcess>).value);
  }

  /** Forks what the pool lacks to be warm again: after a run, when its CPU is free. */
  replenish(): void {
    this.refill();
  }

  /** The store URLs the pool's processes connect to. */
  get storeUrls(): { redisUrl: string; databaseUrl: string } {
    return { redisUrl: this.options.redisUrl, databaseUrl: this.options.databaseUrl };
  }

  /** What the machine gives runs whose workers start as lab hosts (see runs/runLab.ts). */
  get labMechanisms(): LabMechanisms {
    return this.options.labMechanisms ?? labMechanisms();
  }

  /** Processes currently alive (idle or in a run). */
  get size(): number {
    return this.live.size;
  }

  /** Idle processes right now. */
  get idleCount(): number {
    return this.idle.length;
  }

  /** Processes the pool keeps warm between runs. */
  get target(): number {
    return this.options.size;
  }

  /**
   * Why the pool cannot take a run's workers quickly now, or null when it can: it has been
   * full once (the first fill is done) and is not backing off after workers failed to start.
   */
  coldness(): string | null {
    if (this.closed) return 'the worker pool is closed';
    if (this.retryTimer) return `the worker pool cannot start workers (${this.failures} failed starts in a row; retrying)`;
    if (!this.filledOnce && this.options.size > 0)
      return `the worker pool is warming: ${this.idle.length} of ${this.options.size} workers warm`;
    return null;
  }

  /**
   * Replaces every idle process: called when a store went away, since their connections were
   * made to the store as it was. Processes in a run are left to their run.
   */
  recycle(): void {
    for (const child of [...this.idle]) this.drop(child);
    this.refill();
  }

  /** Stops idle processes and kills any still in a run. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const exits = [...this.live].map(
      (child) =>
        new Promise<void>((resolve) =>
          child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
        ),
    );
    for (const child of this.live) child.kill('SIGKILL');
    await Promise.all(exits);
  }

  /**
   * Resolves once the replacements being started now are ready. With agents, also those that
   * replace a replacement made where the next run no longer takes its workers from (an agent
   * came or went meanwhile).
   */
  private async refilled(): Promise<void> {
    if (!this.options.agents) return void (await Promise.allSettled([...this.refilling]));
    while (this.refilling.size > 0) await Promise.allSettled([...this.refilling]);
  }

  private refill(): void {
    if (this.retryTimer) return; // backing off after a failed start
    while (!this.closed && this.idle.length + this.refilling.size + this.lent.size < this.options.size) {
      // On the agents, as many as they have slots for; the next agent to come in gets the rest.
      if (this.fromAgents && this.options.agents!.freeSlots === 0) return;
      let moved = false;
      const forking: Promise<unknown> = (this.fromAgents ? this.startRemote() : this.spawn())
        .then((child) => {
          this.failures = 0;
          if (this.closed) child.kill('SIGKILL');
          else if (isRemote(child) !== this.fromAgents) {
            // Made where the next run no longer takes its workers from (an agent came or went meanwhile).
            moved = true;
            child.kill('SIGKILL');
          } else {
            this.idle.push(child);
            if (this.idle.length >= this.options.size) this.filledOnce = true;
          }
        })
        .catch((error: unknown) => {
          if (this.closed) return;
          const wait = RESPAWN_BACKOFF_MS[Math.min(this.failures, RESPAWN_BACKOFF_MS.length - 1)]!;
          // An agent that went meanwhile is not a failed start: the pool follows the agents.
          if (error instanceof AgentsUnavailable) return;
          if (this.failures === 0 && !(error instanceof StoreFull))
            this.log(`could not start a worker: ${this.redact(String(error))}; trying again`);
          this.failures++;
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.refill();
          }, wait);
          this.retryTimer.unref();
        })
        .finally(() => {
          this.refilling.delete(forking);
          if (moved) this.refill();
        });
      this.refilling.add(forking);
    }
  }

  private redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  private log(line: string): void {
    console.error(`racelab: ${this.redact(line)}`);
  }

  /** Takes an idle process out of the pool and kills it. */
  private drop(worker: WorkerProcess): void {
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    worker.kill('SIGKILL');
  }

  /** Has an agent fork one worker; resolves once it is ready. Throws AgentsUnavailable when no agent has a free slot. */
  private startRemote(): Promise<WorkerProcess> {
    let worker: WorkerProcess;
    try {
      worker = this.options.agents!.start();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.track(worker);
  }

  private spawn(launch: WorkerLaunch = {}): Promise<WorkerProcess> {
    const entry = this.options.entry ?? WORKER_ENTRY;
    const env = {
      ...process.env,
      RACELAB_REDIS_URL: launch.redisUrl ?? this.options.redisUrl,
      RACELAB_DATABASE_URL: launch.databaseUrl ?? this.options.databaseUrl,
      ...launch.env,
    };
    const stdio: ['ignore', 'inherit', 'pipe', 'ipc'] = ['ignore', 'inherit', 'pipe', 'ipc'];
    let child: ChildProcess;
    if (launch.wrap) {
      const [command, ...args] = launch.wrap([process.execPath, ...WORKER_EXEC_ARGV, entry]);
      child = spawn(command!, args, { env, stdio });
    } else {
      child = fork(entry, [], { env, stdio, execArgv: WORKER_EXEC_ARGV });
    }
    own(child, 'worker process'); // stopped by the next start if this server dies without doing it
    // A worker's complaints reach the server's stderr line by line, without any secret.
    createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`${this.redact(line)}\n`));
    return this.track(child);
  }

  /** Counts a new process as live until it exits, and resolves once it says it is ready. */
  private track(worker: WorkerProcess): Promise<WorkerProcess> {
    this.live.add(worker);
    worker.once('exit', () => {
      this.live.delete(worker);
      this.lent.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) {
        // A warm process died while waiting (its store connection broke, its agent went): start a fresh one.
        this.idle.splice(at, 1);
        this.refill();
      }
    });
    return this.ready(worker);
  }

  /** Resolves once the process says it is ready; rejects, saying why, when it exits first. */
  private ready(worker: WorkerProcess): Promise<WorkerProcess> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: FromWorker): void => {
        if (message.kind !== 'ready') return;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(worker);
      };
      const onExit = (code: number | null, signal: string | null): void => {
        // Its agent went meanwhile: not a worker that failed to start (the pool follows the agents).
        if (worker instanceof RemoteWorker && worker.agentGone) {
          return reject(new AgentsUnavailable(`a worker starting on agent ${worker.host} ${worker.lost}`));
        }
        const where = worker.host ? ` on agent ${worker.host}` : '';
        if (code === STORE_FULL_EXIT_CODE) return reject(new StoreFull(`worker${where} found no PostgreSQL connection free`));
        reject(new Error(`worker${where} exited before it was ready (${worker.lost ?? `code ${code}, signal ${signal}`})`));
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  }
}

/** A worker that runs on an agent's host, not as this server's child. */
function isRemote(worker: WorkerProcess): boolean {
  return worker.host !== undefined;
}
