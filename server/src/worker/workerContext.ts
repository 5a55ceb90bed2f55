// Builds the context a variant's code runs with inside its worker process.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { WorkerEventBody } from '@racelab/shared';
import { msSince, sleepAtLeast } from '../time/clock.js';
import type { WorkerContext } from '../scenarios/types.js';
import { storedKey } from '../scenarios/keyAliases.js';
import type { FromWorker, ToWorker, WorkerPlan } from './ipc.js';

type Send = (message: FromWorker) => void;

/** Creates the context for one plan; `onMessage` must be fed every message from the server. */
export function createWorkerContext(
  plan: WorkerPlan,
  redis: Redis,
  client: pg.Client,
  send: Send,
  keyAliases?: Record<string, string>,
): { ctx: WorkerContext; onMessage(message: ToWorker): void } {
  const startNs = BigInt(plan.runStartNs);
  const pending = new Map<number, (name: string) => void>();
  let nextId = 1;

  // Every request that the server answers later (wait, barrier, checkpoint) goes through here.
  const request = (build: (id: number) => FromWorker): Promise<string> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send(build(id));
    });

  const stripPrefix = (event: WorkerEventBody): WorkerEventBody =>
    'key' in event && event.key.startsWith(plan.keyPrefix) ? { ...event, key: event.key.slice(plan.keyPrefix.length) } : event;

  const ctx: WorkerContext = {
    runId: plan.runId,
    workerId: plan.workerId,
    workerIds: plan.workerIds,
    params: plan.params,
    date: plan.date,
    shared: plan.shared,
    redis,
    pg: client,
    key: (name) => plan.keyPrefix + storedKey(keyAliases, name),
    emit: (event) => send({ kind: 'event', event: { ...stripPrefix(event), atMs: msSince(startNs), workerId: plan.workerId } }),
    now: () => msSince(startNs),
    sleep: sleepAtLeast,
    signal: (name) => send({ kind: 'signal', name }),
    waitFor: (...names) => request((id) => ({ kind: 'wait', id, names })),
    barrier: async (name) => {
      await request((id) => ({ kind: 'barrier', id, name }));
    },
    checkpoint: async (name) => {
      ctx.emit({ type: 'checkpoint-reached', checkpoint: name });
      await request((id) => ({ kind: 'checkpoint', id, name }));
    },
    stall: async (ms) => {
      await request((id) => ({ kind: 'stall', id, ms }));
    },
    die: () => {
      send({ kind: 'die' });
      return new Promise<never>(() => undefined); // the SIGKILL is on its way
    },
  };

  return {
    ctx,
    onMessage(message) {
      if (message.kind !== 'released') return;
      pending.get(message.id)?.(message.name ?? '');
      pending.delete(message.id);
    },
  };
}
