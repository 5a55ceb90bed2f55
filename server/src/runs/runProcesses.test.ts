// How a run judges a worker's exit. Node may emit a child's 'exit' before the messages still
// in its pipe (on a loaded machine the exit signal can be read first), and a worker whose
// store connection broke before its plan arrived sends no message at all: in both cases the
// run must still say what happened, not "exited with code 1".
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Coordinator } from './coordinator.js';
import { RunProcesses, type ProcessHost } from './runProcesses.js';
import { LOST_STORE_EXIT_CODES } from '@racelab/shared';
import type { FromWorker, WorkerPlan } from '../worker/ipc.js';

/** A worker process as Node's ChildProcess presents one, its events emitted by the test. */
class Child extends EventEmitter {
  readonly pid = 4242;
  connected = true;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** What the run sent it, in order. */
  readonly sent: unknown[] = [];
  send(message: unknown): boolean {
    this.sent.push(message);
    return true;
  }
  kill(): boolean {
    return true;
  }
  /** The process ends; its message channel closes after, as Node reports both. */
  exit(code: number): void {
    this.exitCode = code;
    this.emit('exit', code, null);
  }
  disconnect(): void {
    this.connected = false;
    this.emit('disconnect');
  }
}

/** One worker driven by a run; `keep` answers a worker that offers to stay (the pool's). */
function driven(keep?: () => boolean) {
  const log: string[] = [];
  const reasons: string[] = [];
  const kept: Child[] = [];
  const host: ProcessHost = {
    append: (_workerId, body) => log.push('pooled' in body && body.pooled ? `${body.type} (pooled)` : body.type),
    cancel: (reason) => reasons.push(reason),
    partition: () => undefined,
    isolate: () => undefined,
    slow: () => undefined,
    ...(keep ? { keep: (child) => keep() && kept.push(child as Child) > 0 } : {}),
  };
  const child = new Child();
  const plan = { workerId: 'worker-1' } as WorkerPlan;
  const processes = new RunProcesses(host);
  let over = false;
  const done = processes.drive(child, plan, new Coordinator(['worker-1'], [])).then(() => void (over = true));
  return { child, log, reasons, done, processes, kept, isOver: () => over };
}

describe("a worker's exit", () => {
  it('is judged after the messages it sent before it exited, even when Node reports the exit first', async () => {
    const { child, log, reasons, done } = driven();
    const code = LOST_STORE_EXIT_CODES.Redis;
    child.exit(code);
    child.emit('message', {
      kind: 'event',
      event: { type: 'work-started', label: 'sending', workerId: 'worker-1', atMs: 5 },
    } satisfies FromWorker);
    child.emit('message', { kind: 'finished', error: 'its Redis connection was lost: the connection closed' } satisfies FromWorker);
    child.disconnect();
    await done;
    expect(reasons).toEqual(['worker-1 failed: its Redis connection was lost: the connection closed']);
    expect(log).toEqual(['worker-started', 'work-started', 'worker-exited']);
  });

  it('of a worker whose store went before its plan arrived names the store, with no message to say it', async () => {
    for (const [store, code] of Object.entries(LOST_STORE_EXIT_CODES)) {
      const { child, reasons, done } = driven();
      child.disconnect();
      child.exit(code);
      await done;
      expect(reasons).toEqual([`worker-1 (pid 4242) exited: its ${store} connection was lost`]);
    }
  });

  it('that is a crash says so', async () => {
    const { child, reasons, done } = driven();
    child.disconnect();
    child.exit(1);
    await done;
    expect(reasons).toEqual(['worker-1 (pid 4242) exited with code 1 before it finished']);
  });
});

describe('a worker that offers to stay after an explored run', () => {
  it('goes back to the pool: told to stay, unwired from the run, its part over without an exit', async () => {
    const { child, log, done, kept } = driven(() => true);
    child.emit('message', { kind: 'finished', stays: true } satisfies FromWorker);
    await done;
    expect(kept).toEqual([child]);
    expect(child.sent.at(-1)).toEqual({ kind: 'stay' });
    expect(log).toEqual(['worker-started', 'worker-exited (pooled)']);
    expect(child.listenerCount('message') + child.listenerCount('exit') + child.listenerCount('error')).toBe(0);
  });

  it('is told to leave when a fault struck it in this run, and its exit ends its part as any other', async () => {
    const { child, log, reasons, processes, kept, done, isOver } = driven(() => true);
    expect(processes.fault('worker-1', 'pause')).toBeUndefined();
    expect(processes.fault('worker-1', 'resume')).toBeUndefined();
    child.emit('message', { kind: 'finished', stays: true } satisfies FromWorker);
    await new Promise((resolve) => setImmediate(resolve));
    expect(child.sent.at(-1)).toEqual({ kind: 'leave' });
    expect(kept).toEqual([]);
    expect(isOver()).toBe(false);
    child.disconnect();
    child.exit(0);
    await done;
    expect(reasons).toEqual([]);
    expect(log.at(-1)).toBe('worker-exited');
  });

  it('is told to leave when the pool will not have it', async () => {
    const { child, kept } = driven(() => false);
    child.emit('message', { kind: 'finished', stays: true } satisfies FromWorker);
    expect(child.sent.at(-1)).toEqual({ kind: 'leave' });
    expect(kept).toEqual([]);
  });
});
