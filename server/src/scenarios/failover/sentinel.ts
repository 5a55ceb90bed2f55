// A real Redis Sentinel for one run: Debian's redis-server binary in sentinel mode
// (`redis-server <conf> --sentinel`), with its config file in a scratch dir of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../services/freePort.js';
import { probeRedis } from '../../services/probeRedis.js';
import { makeScratchDir, recordChild } from '../../services/scratchDir.js';

export interface SentinelOptions {
  /** The name clients ask Sentinel for. */
  name: string;
  primaryPort: number;
  /** How long the primary must stay silent before Sentinel calls it down, in ms. */
  downAfterMs: number;
  /** Sentinel's failover-timeout, in ms; see why it is long in deployment.ts. */
  failoverTimeoutMs: number;
}

export interface SentinelProcess {
  port: number;
  stop(): Promise<void>;
  killSync(): void;
}

const STARTUP_TIMEOUT_MS = 10_000;

// One sentinel with quorum 1: alone, it both decides the primary is down and leads the failover.
const config = (port: number, dir: string, o: SentinelOptions): string => `port ${port}
bind 127.0.0.1
dir ${dir}
logfile ${path.join(dir, 'sentinel.log')}
sentinel monitor ${o.name} 127.0.0.1 ${o.primaryPort} 1
sentinel down-after-milliseconds ${o.name} ${o.downAfterMs}
sentinel failover-timeout ${o.name} ${o.failoverTimeoutMs}
sentinel parallel-syncs ${o.name} 1
`;

/** Starts a sentinel on a free port and resolves once it answers PING. */
export async function startSentinel(options: SentinelOptions): Promise<SentinelProcess> {
  const dir = await makeScratchDir('redis');
  try {
    // The free port can be taken between our check and the bind: a retry covers that race.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const file = path.join(dir, 'sentinel.conf');
      await writeFile(file, config(port, dir, options)); // Sentinel rewrites it as it learns
      const child = spawn('redis-server', [file, '--sentinel'], { stdio: 'ignore' });
      child.on('error', () => undefined); // e.g. ENOENT: seen below as an exit
      const failure = await waitUntilReady(child, port);
      if (!failure) {
        await recordChild(dir, child.pid!);
        return handle(child, port, dir);
      }
      child.kill('SIGKILL');
      const log = await readFile(path.join(dir, 'sentinel.log'), 'utf8').catch(() => '');
      if (attempt < 3 && /address already in use/i.test(log)) continue;
      throw new Error(`redis sentinel did not start: ${failure}; log: ${log.trim().split('\n').slice(-3).join(' | ')}`);
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function waitUntilReady(child: ChildProcess, port: number): Promise<string | null> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return `exited with ${child.exitCode ?? child.signalCode}`;
    try {
      await probeRedis(`redis://127.0.0.1:${port}`, 500);
      return null;
    } catch {
      if (Date.now() >= deadline) return `no answer on port ${port} within ${STARTUP_TIMEOUT_MS} ms`;
      await sleep(30);
    }
  }
}

function handle(child: ChildProcess, port: number, dir: string): SentinelProcess {
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
  return {
    port,
    async stop() {
      child.kill('SIGKILL'); // nothing of a sentinel's is worth keeping
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
    killSync() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
