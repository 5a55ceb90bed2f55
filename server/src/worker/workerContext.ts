// Builds the context a variant's code runs with inside its worker process.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { StepAt, WorkerEventBody } from '@racelab/shared';
import { afterAtLeast, msSince } from '../time/clock.js';
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
): { ctx: WorkerContext; onMessage(message: ToWorker): void; gate: (step: StepAt) => Promise<void>; endSleeps(): void } {
  const startNs = BigInt(plan.runStartNs);
  const pending = new Map<number, (name: string) => void>();
  let nextId = 1;
  // The sleeps not yet over, each by what cancels its timer: a sleep the run's code left
  // behind (the loser of a Promise.race) ends with the run, so the worker may serve another.
  const sleeps = new Set<() => void>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const cancel = afterAtLeast(ms, () => {
        sleeps.delete(cancel);
        resolve();
      });
      sleeps.add(cancel);
    });

  // Every request that the server answers later (wait, barrier, checkpoint) goes through here.
  const request = (build: (id: number) => FromWorker): Promise<string> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send(build(id));
    });

  const gate = async (step: StepAt): Promise<void> => {
    await request((id) => ({ kind: 'step', id, step }));
  };

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
    sleep,
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

  if (plan.explore) {
    exploreChoreography(ctx, gate);
    ctx.scheduled = gate;
  }

  return {
    ctx,
    gate,
    endSleeps() {
      for (const cancel of sleeps) cancel();
      sleeps.clear();
    },
    onMessage(message) {
      if (message.kind !== 'released') return;
      pending.get(message.id)?.(message.name ?? '');
      pending.delete(message.id);
    },
  };
}

/**
 * An explored run: the schedule decides the order, so the scenario's choreography steps aside.
 * A wait, a barrier, a sleep or a stall is a point where letting another worker go is free
 * (and nobody is put to sleep: a lease runs out only when the schedule expires it); a
 * checkpoint is a scheduling point too.
 */
function exploreChoreography(ctx: WorkerContext, gate: (step: StepAt) => Promise<void>): void {
  const pause = (why: string) => gate({ kind: 'yield', why });
  ctx.waitFor = async (...names) => {
    await pause('wait');
    return names[0]!;
  };
  ctx.barrier = () => pause('barrier');
  ctx.sleep = () => pause('sleep');
  ctx.stall = () => pause('stall');
  ctx.checkpoint = async (name) => {
    ctx.emit({ type: 'checkpoint-reached', checkpoint: name });
    await gate({ kind: 'checkpoint', name });
  };
}
