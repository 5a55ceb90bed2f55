// A warm pool of worker processes: forked from built JavaScript, connected to Redis and
// PostgreSQL and with every scenario loaded before a run asks for them. Each process
// serves one run and exits, so a run never inherits another's state (or its SIGSTOP).
import { fork, type ChildProcess } from 'node:child_process';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
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
}

export class WorkerPool {
  private readonly idle: ChildProcess[] = [];
  private readonly live = new Set<ChildProcess>();
  private refilling = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.refill();
  }

  /** Hands out `count` ready processes, forking the ones the pool lacks. */
  async take(count: number): Promise<ChildProcess[]> {
    if (this.closed) throw new Error('worker pool is closed');
    const warm = this.idle.splice(0, count);
    const cold = await Promise.all(Array.from({ length: count - warm.length }, () => this.spawn()));
    this.refill();
    return [...warm, ...cold];
  }

  /** Processes currently alive (idle or in a run). */
  get size(): number {
    return this.live.size;
  }

  /** Stops idle processes and kills any still in a run. */
  async close(): Promise<void> {
    this.closed = true;
    const exits = [...this.live].map(
      (child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()))),
    );
    for (const child of this.live) child.kill('SIGKILL');
    await Promise.all(exits);
  }

  private refill(): void {
    while (!this.closed && this.idle.length + this.refilling < this.options.size) {
      this.refilling++;
      this.spawn()
        .then((child) => (this.closed ? child.kill('SIGKILL') : this.idle.push(child)))
        .catch((error: unknown) => {
          if (!this.closed) console.error(`racelab: could not start a worker: ${String(error)}`);
        })
        .finally(() => this.refilling--);
    }
  }

  private spawn(): Promise<ChildProcess> {
    const child = fork(this.options.entry ?? defaultEntry, [], {
      env: {
        ...process.env,
        RACELAB_REDIS_URL: this.options.redisUrl,
        RACELAB_DATABASE_URL: this.options.databaseUrl,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.live.add(child);
    child.once('exit', () => {
      this.live.delete(child);
      const at = this.idle.indexOf(child);
      if (at >= 0) this.idle.splice(at, 1);
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
