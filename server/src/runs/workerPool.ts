// A warm pool of worker processes: forked from built JavaScript, connected to Redis and
// PostgreSQL and with every scenario loaded before a run asks for them. Each process
// serves one run and exits, so a run never inherits another's state (or its SIGSTOP).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { sep } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { own } from '../debris/ownedProcesses.js';
import { labMechanisms, type LabMechanisms } from '../labnet/mechanisms.js';
import type { FromWorker } from '../worker/ipc.js';

// Always the built JavaScript: forking through a TypeScript loader costs ~360 ms a process,
// and tests that import the sources still fork the build.
const defaultEntry = fileURLToPath(new URL('../worker/workerMain.js', import.meta.url)).replace(
  `${sep}server${sep}src${sep}`,
  `${sep}server${sep}dist${sep}`,
);

export interface WorkerPoolOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Processes kept warm between runs. */
  size: number;
  /** Worker entry script; the built workerMain.js by default. */
  entry?: string;
  /** What the machine gives runs that start workers as lab hosts (takeFresh); looked at once when absent. */
  labMechanisms?: LabMechanisms;
  /** Every line a worker writes to stderr goes through it to the server's stderr. */
  redact?: (text: string) => string;
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
  private readonly idle: ChildProcess[] = [];
  private readonly live = new Set<ChildProcess>();
  /** Replacements being forked (refill): a run waits for them before it starts. */
  private readonly refilling = new Set<Promise<unknown>>();
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WorkerPoolOptions) {
    this.refill();
  }

  /**
   * Hands out `count` ready processes, forking the ones the pool lacks. The pool does not
   * refill here: forking replacements while the run plays would take the CPU its workers
   * need. The run calls `replenish` when it is over, and the next run waits for the
   * replacements already being forked (a Node process starting up takes a core for
   * ~150 ms; on a busy machine a worker of a run sharing it could stall for longer than
   * its scenario's windows).
   */
  async take(count: number): Promise<ChildProcess[]> {
    await Promise.allSettled([...this.refilling]);
    if (this.closed) throw new Error('worker pool is closed');
    // A warm process that has gone (its store connection broke, it was killed) is not handed out.
    const warm = this.idle.splice(0, count).filter((child) => child.connected && child.exitCode === null && child.signalCode === null);
    const spawned = await Promise.allSettled(Array.from({ length: count - warm.length }, () => this.spawn()));
    const cold = spawned.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = spawned.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      // No half-handed-out set: the processes that did start go too.
      for (const child of [...warm, ...cold]) child.kill('SIGKILL');
      throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    }
    return [...warm, ...cold];
  }

  /**
   * Starts one fresh process per launch, for a run that needs them made its way (see
   * WorkerLaunch); the warm processes stay for the runs that need none. All or nothing.
   */
  async takeFresh(launches: WorkerLaunch[]): Promise<ChildProcess[]> {
    await Promise.allSettled([...this.refilling]);
    if (this.closed) throw new Error('worker pool is closed');
    const spawned = await Promise.allSettled(launches.map((launch) => this.spawn(launch)));
    const failed = spawned.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      for (const s of spawned) if (s.status === 'fulfilled') s.value.kill('SIGKILL');
      throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    }
    return spawned.map((s) => (s as PromiseFulfilledResult<ChildProcess>).value);
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

  /**
   * Replaces every idle process: called when a store went away, since their connections were
   * made to the store as it was. Processes in a run are left to their run.
   */
  recycle(): void {
    for (const child of this.idle.splice(0)) child.kill('SIGKILL');
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

  private refill(): void {
    if (this.retryTimer) return; // backing off after a failed start
    while (!this.closed && this.idle.length + this.refilling.size < this.options.size) {
      const forking: Promise<unknown> = this.spawn()
        .then((child) => {
          this.failures = 0;
          if (this.closed) child.kill('SIGKILL');
          else this.idle.push(child);
        })
        .catch((error: unknown) => {
          if (this.closed) return;
          const wait = RESPAWN_BACKOFF_MS[Math.min(this.failures, RESPAWN_BACKOFF_MS.length - 1)]!;
          if (this.failures === 0) console.error(`racelab: could not start a worker: ${this.redact(String(error))}; trying again`);
          this.failures++;
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.refill();
          }, wait);
          this.retryTimer.unref();
        })
        .finally(() => this.refilling.delete(forking));
      this.refilling.add(forking);
    }
  }

  private redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  private spawn(launch: WorkerLaunch = {}): Promise<ChildProcess> {
    const entry = this.options.entry ?? defaultEntry;
    const env = {
      ...process.env,
      RACELAB_REDIS_URL: launch.redisUrl ?? this.options.redisUrl,
      RACELAB_DATABASE_URL: launch.databaseUrl ?? this.options.databaseUrl,
      ...launch.env,
    };
    const stdio: ['ignore', 'inherit', 'pipe', 'ipc'] = ['ignore', 'inherit', 'pipe', 'ipc'];
    let child: ChildProcess;
    if (launch.wrap) {
      const [command, ...args] = launch.wrap([process.execPath, ...process.execArgv, entry]);
      child = spawn(command!, args, { env, stdio });
    } else {
      child = fork(entry, [], { env, stdio });
    }
    own(child, 'worker process'); // stopped by the next start if this server dies without doing it
    // A worker's complaints reach the server's stderr line by line, without any secret.
    createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`${this.redact(line)}\n`));
    this.live.add(child);
    child.once('exit', () => {
      this.live.delete(child);
      const at = this.idle.indexOf(child);
      if (at >= 0) {
        // A warm process died while waiting (its store connection broke): fork a fresh one.
        this.idle.splice(at, 1);
        this.refill();
      }
    });
    return new Promise((resolve, reject) => {
      const onMessage = (message: FromWorker): void => {
        if (message.kind !== 'ready') return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(child);
      };
      const onExit = (code: number | null, signal: string | null): void =>
        reject(new Error(`worker exited before it was ready (code ${code}, signal ${signal})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  }
}
