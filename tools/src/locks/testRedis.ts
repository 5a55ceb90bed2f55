// For the lock tests: the shared test Redis and a fresh key prefix per test (from the
// server's test helpers), and a private redis-server on a free port that a test may crash
// and restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from '@racelab/server';

export { freshPrefix, testRedis } from '@racelab/server/testing';

/** A redis-server of the test's own, without persistence: a restart comes back empty. */
export class PrivateRedis {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const server = new PrivateRedis(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and resolves once it answers PING. */
  async restart(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    child.on('error', () => undefined);
    this.child = child;
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined);
    try {
      for (let i = 0; i < 200; i++) {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
        try {
          await probe.connect();
          await probe.ping();
          return;
        } catch {
          probe.disconnect();
          await sleep(25);
        }
      }
      throw new Error(`redis-server on ${this.port} did not answer`);
    } finally {
      probe.disconnect();
    }
  }

  /** SIGKILL, as a crash would: whatever it held is gone. */
  async crash(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
