// The ground truth beside the workers' beliefs while a run plays: what its watched keys
// hold in Redis (each change in the log, recorded by the scenario in order, and a latch for
// the workers waiting on it), and the rows the scenario observes, when it observes any.
// An observer that fails, or a record that does, ends the run in words.
import type { Redis } from 'ioredis';
import type { Params } from '@racelab/shared';
import type { AnyScenario } from '../scenarios/registry.js';
import { scenarioKey, storedKey } from '../scenarios/keyAliases.js';
import type { RunFixture, RunInfo } from '../scenarios/types.js';
import { keyGoneLatch, keySeenLatch } from '../worker/latches.js';
import type { Coordinator } from './coordinator.js';
import { KeyObserver } from './keyObserver.js';
import type { KeyspaceEvents } from './keyspaceEvents.js';
import { RowObserver } from './rowObserver.js';
import type { EventBody } from './runLog.js';
import type { OwnedRunStores } from './runStores.js';

/** What the observers need of their run. */
export interface ObservedRun {
  scenario: AnyScenario;
  /** The variant's stored name of each key a library keeps under a name of its own. */
  keyAliases: Record<string, string> | undefined;
  /** The run's parameters as its workers see them (durations scaled). */
  params: Params;
  info: RunInfo;
  stores: OwnedRunStores;
  fixture: RunFixture;
  coordinator: Coordinator;
  redis: Redis;
  /** Redis's change notifications, when this Redis gives them. */
  keyspace?: KeyspaceEvents | null;
  /** Appends to the run's log, as the run's own (no worker's) event. */
  append(body: EventBody): void;
  /** Ends the run with this reason. */
  cancel(reason: string): void;
}

/** An error PostgreSQL itself replied with (pg's DatabaseError: a SQLSTATE code and a severity). */
function fromPostgres(error: Error): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

export class GroundTruth {
  private readonly observers: Array<{ stop(): Promise<void> }> = [];
  private records: Promise<void> = Promise.resolve();

  /** Starts observing at once. */
  constructor(private readonly run: ObservedRun) {
    this.observers.push(this.observeKeys());
    if (run.scenario.observe) this.observers.push(this.observeRows());
  }

  /** The scenario's records of what the key observer saw (`onKeyObserved`), in order; rejects on the first failure. */
  get recorded(): Promise<void> {
    return this.records;
  }

  /** Stops every observer, each after a last sample. */
  async stop(): Promise<void> {
    await Promise.all(this.observers.map((o) => o.stop()));
  }

  /** For the run's clean-up: the observers stopped and the records made, whatever failed. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.observers.map((o) => o.stop()));
    await this.records.catch(() => undefined);
  }

  private observeKeys(): KeyObserver {
    const { scenario, keyAliases, stores, coordinator } = this.run;
    return new KeyObserver(
      this.run.redis,
      stores.keyPrefix,
      scenario.watchedKeys(this.run.params, this.run.info).map((name) => storedKey(keyAliases, name)),
      (stored, storedBefore) => {
        const o = { ...stored, key: scenarioKey(keyAliases, stored.key) };
        const before = storedBefore && { ...storedBefore, key: o.key };
        this.run.append({ type: 'key-observed', key: o.key, value: o.value, pttlMs: o.pttlMs, ...(o.gone ? { gone: o.gone } : {}) });
        this.records = this.records
          .then(() => scenario.onKeyObserved?.(stores, o, before))
          .then(() => {
            if (o.value !== null) coordinator.signal(keySeenLatch(o.key, o.value));
          });
        this.records.catch((error: unknown) => this.run.cancel(`could not record what Redis held: ${String(error)}`));
      },
      (error) => this.run.cancel(`Redis stopped answering during the run: ${error.message}`),
      this.run.keyspace,
      (stored) => coordinator.signal(keyGoneLatch(scenarioKey(keyAliases, stored))),
    );
  }

  private observeRows(): RowObserver {
    const { scenario, stores, fixture } = this.run;
    return new RowObserver(
      () => scenario.observe!(stores, fixture),
      (store, target, value) => this.run.append({ type: 'row-observed', store, target, value }),
      (error) =>
        this.run.cancel(
          `${fromPostgres(error) ? "PostgreSQL failed while the timeline's ground truth was read" : 'Reading the ground truth for the timeline failed'} during the run: ${error.message}`,
        ),
    );
  }
}
