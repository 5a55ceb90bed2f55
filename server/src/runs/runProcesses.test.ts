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
  send(): boolean {
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

function driven() {
  const log: string[] = [];
  const reasons: string[] = [];
  const host: ProcessHost = {
    append: (_workerId, body) => log.push(body.type),
    cancel: (reason) => reasons.push(reason),
    partition: () => undefined,
    isolate: () => undefined,
    slow: () => undefined,
  };
  const child = new Child();
  const plan = { workerId: 'worker-1' } as WorkerPlan;
  const done = new RunProcesses(host).drive(child, plan, new Coordinator(['worker-1'], []));
  return { child, log, reasons, done };
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
