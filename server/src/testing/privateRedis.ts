// A redis-server of a test's own, on a free port, that the test may restart (kill it and
// start a new one on the same port) without touching the machine's Redis on 6379.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedRedis } from '../services/embeddedRedis.js';
import { probeRedis } from '../services/probeRedis.js';

export interface PrivateRedis {
  url: string;
  /** SIGKILLs the server: every connection drops, every key is gone. */
  kill(): void;
  /** Starts a fresh, empty server on the same port and resolves once it answers. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const first = await startEmbeddedRedis();
  const port = new URL(first.url).port;
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  let firstAlive = true;
  const kill = (): void => {
    if (firstAlive) {
      firstAlive = false;
      first.killSync();
    }
    child?.kill('SIGKILL');
    child = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  };
  return {
    url: first.url,
    kill,
    async start() {
      dir = mkdtempSync(join(tmpdir(), 'racelab-test-redis-'));
      const deadline = Date.now() + 10_000;
      // The port may take a moment to be free again after the kill.
      for (;;) {
        child = spawn('redis-server', ['--port', port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
          stdio: 'ignore',
        });
        const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
        for (;;) {
          try {
            await probeRedis(first.url, 500);
            return;
          } catch {
            if (child.exitCode !== null) break;
            if (Date.now() > deadline) throw new Error(`redis-server did not come back on port ${port}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        await exited;
        if (Date.now() > deadline) throw new Error(`redis-server did not come back on port ${port}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      kill();
      await first.stop();
    },
  };
}
