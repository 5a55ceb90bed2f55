import type { VariantManifest } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { deadHolderRun } from './fixtures/deadHolderRun.js';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { codeAnchors, deriveStepTimeline, followedStep, stepsAt, stepsKey, stepWords, type WorkerStep } from './codeSteps.js';

const code = `async run(job) {
  job.emit({ type: 'lease-requested', key });
  const won = await job.redis.setnx(key, job.workerId);
  if (won === 0) return job.skip(key);
  job.emit({ type: 'lease-acquired', key, ttlMs: null });
  await job.checkpoint('after-setnx');
  await job.sendReport();
  job.emit({ type: 'lease-released', key, deleted: await job.redis.del(key) });
}`;

const variant: VariantManifest = {
  id: 'v',
  title: 'v',
  correct: false,
  summary: '',
  code,
  defaults: {},
  faults: [],
  checkpoints: ['after-setnx'],
};

describe('code steps', () => {
  it('finds the lines that emit events and name checkpoints', () => {
    const a = codeAnchors(code);
    expect(a.byType.get('lease-acquired')).toEqual([4]);
    expect(a.byCheckpoint.get('after-setnx')).toBe(5);
    expect(a.byType.has('write-accepted')).toBe(false);
  });

  it('puts each worker on its latest anchored line, with its state', () => {
    const timeline = deriveStepTimeline(deadHolderRun(), variant);
    const workers = ['worker-1', 'worker-2', 'worker-3'];
    expect(stepsAt(timeline, workers, 3.5).map(stepWords)).toEqual(['worker-1: line 5']);
    expect(stepsAt(timeline, workers, 4).map(stepWords)).toEqual(['worker-1: line 6']);
    const end = stepsAt(timeline, workers, null);
    // worker-2 and worker-3 only did what this code does not emit: they have no step.
    expect(end.map(stepWords)).toEqual(['worker-1: line 6, killed']);
    // A worker that never reached a line of this code (its steps are in shared code).
    expect(stepWords({ workerId: 'server-1', atMs: 9, line: null, state: 'running' })).toBe('server-1: not in this code yet');
    expect(stepWords({ workerId: 'server-1', atMs: 9, line: null, state: 'done' })).toBe('server-1: outside this code, done');
    expect(stepsKey(end)).toBe('worker-1:5:killed');
  });

  it('shows a stalled process on the line it stopped at, and memoises per log and variant', () => {
    const events = blindDelRun();
    const timeline = deriveStepTimeline(events, variant);
    expect(deriveStepTimeline(events, variant)).toBe(timeline);
    expect(stepsAt(timeline, ['worker-1'], 100)[0]).toMatchObject({ line: 4, state: 'stalled' });
    expect(stepsAt(timeline, ['worker-1'], 900)[0]).toMatchObject({ line: 7, state: 'done' });
  });
});

describe('followedStep', () => {
  const step = (workerId: string, line: number | null, state: WorkerStep['state']): WorkerStep => ({ workerId, line, state, atMs: 0 });
  it('follows the chosen worker, else the first one still in the code', () => {
    const steps = [step('worker-1', 4, 'done'), step('worker-2', 9, 'stalled'), step('worker-3', null, 'running')];
    expect(followedStep(steps, 'worker-1')?.line).toBe(4);
    expect(followedStep(steps, null)?.workerId).toBe('worker-2');
    expect(followedStep(steps, 'worker-3')).toBeNull();
    expect(followedStep(steps, 'nobody')?.workerId).toBe('worker-2');
    expect(followedStep([], null)).toBeNull();
  });
});
