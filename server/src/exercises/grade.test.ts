// duplicate-job graded as an exercise on the real stores: the solution's code passes every
// set, the starting code fails, a plain-DEL half-fix fails at the set that exposes it and is
// named as that near-miss, a fix that skips the scenario's stall fails for it, and a page's
// run of edited code is a run like any other (its verdict from the stores), in a process
// whose environment holds only its store URLs and which may not read outside its folders.
import { EXERCISE_VARIANT_ID, type ExerciseProgress } from '@racelab/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../runs/playground.js';
import { BLIND_DEL, HEAP_HOG, PLAIN_DEL_HALF_FIX, STALL_REMOVED, TELLS_ITS_PROCESS, TOKEN_LUA } from '../testing/exerciseCode.js';
import { eventsOf, openTestPlayground } from '../testing/testPlayground.js';
import { exerciseOf, type Exercise } from './exerciseOf.js';
import { ExerciseService } from './exerciseService.js';
import { gradeExercise, type GradeOptions } from './grade.js';
import { closeExerciseConfinement, exerciseConfinement } from './confinement.js';
import { exercisePolicy } from './policy.js';
import { STORES } from './testing/hostile.js';

let playground: Playground;
let exercise: Exercise;
beforeAll(async () => {
  playground = await openTestPlayground(0);
  exercise = exerciseOf(playground.catalog, 'duplicate-job')!;
});
afterAll(async () => {
  await playground.close();
  await closeExerciseConfinement();
});

async function grade(code: string, options: GradeOptions = {}): Promise<{ lines: ExerciseProgress[]; ending: ExerciseProgress }> {
  const lines: ExerciseProgress[] = [];
  const ending = await gradeExercise(playground, exercise, code, (line) => lines.push(line), options);
  return { lines, ending };
}

// The sets of duplicate-job's exercise, in order: the defaults, five together, then the two
// failing fetches (two arriving late is no set of the solution's: a lock cannot stop a late second run).
const OVERRUN_SET = 2;

describe("duplicate-job's exercise", () => {
  it("passes the solution's own code at every set, streaming each set as it is graded", async () => {
    const { lines, ending } = await grade(TOKEN_LUA);
    expect(lines[0]).toEqual({ kind: 'compiled', sets: 4 });
    expect(lines.filter((l) => l.kind === 'set')).toHaveLength(4);
    expect(ending).toMatchObject({ kind: 'done', passed: true });
    if (ending.kind !== 'done') return;
    expect(ending.results.map((r) => r.set.label)).toEqual([
      'the defaults',
      'workers 5, arrival together',
      'workers 3, work 3 s, lease 2 s, arrival late, failure first fails',
      'workers 3, work 100 ms, lease 3 s, arrival late, failure first fails',
    ]);
    expect(ending.results.every((r) => r.passed && r.failures.length === 0)).toBe(true);
  }, 300_000);

  it('fails the starting code (blind-del) in the verdict’s own words, with the set’s reason', async () => {
    const { ending } = await grade(BLIND_DEL, { stopAtFirstFailure: true });
    expect(ending).toMatchObject({ kind: 'done', passed: false });
    if (ending.kind !== 'done') return;
    const failed = ending.results.at(-1)!;
    expect(failed.passed).toBe(false);
    expect(failed.index).toBe(OVERRUN_SET);
    expect(failed.failures).toContain('E-mails sent: 2 — should be 1');
    expect(failed.summary).toBe(
      "fails at workers 3, work 3 s, lease 2 s, arrival late, failure first fails: worker-1's fetch outlasts its 2 s lease and fails: worker-2 holds the lock when worker-1 releases",
    );
  }, 300_000);

  it('names a unique token released with a plain DEL as the blind-release near-miss, at the set that exposes it', async () => {
    const { ending } = await grade(PLAIN_DEL_HALF_FIX, { onlySets: [OVERRUN_SET] });
    expect(ending).toMatchObject({ kind: 'done', passed: false });
    if (ending.kind !== 'done') return;
    expect(ending.results[0]).toMatchObject({
      index: OVERRUN_SET,
      passed: false,
      nearMiss: { id: 'token-lua-plain-del', mistake: expect.stringContaining('plain DEL') as unknown },
    });
  }, 180_000);

  it('fails a fix that no longer reaches the checkpoint where the scenario stalls, and says to keep it', async () => {
    const { ending } = await grade(STALL_REMOVED, { onlySets: [0] });
    expect(ending).toMatchObject({ kind: 'done', passed: false });
    if (ending.kind !== 'done') return;
    expect(ending.results[0]!.failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^your code no longer reaches working, where the scenario stalls worker-\d: keep it$/),
      ]),
    );
  });

  it('says why a run of code that fills its heap failed: out of memory, not killed from outside', async () => {
    const { ending } = await grade(HEAP_HOG, { onlySets: [0] });
    expect(ending).toMatchObject({ kind: 'done', passed: false });
    if (ending.kind !== 'done') return;
    expect(ending.results[0]!.failures.join('\n')).toMatch(/worker-\d \(pid \d+\) ended: your code ran out of memory \(128 MB\)/);
  });

  it('tells code that does not load from code that fails: not-compiled, with the reason', async () => {
    const { ending } = await grade(`${TOKEN_LUA}\nthrow new Error('boom at load');\n`, { onlySets: [0] });
    expect(ending).toEqual({ kind: 'not-compiled', errors: [{ message: 'your code did not load: boom at load' }] });
  });
});

// A page's run takes the parameters the page shows: blind-del's own defaults arrive late, where no lock can keep a second run out.
const TOGETHER = { arrival: 'together', leaseMs: 30_000, workMs: 120 };

describe("a page's run of edited code", () => {
  it('runs as your-fix, judged by the stores, in a process that holds only its store URLs and reads only its folders', async () => {
    const service = new ExerciseService(playground, exercisePolicy('127.0.0.1', false));
    const edited = await service.editedRun('duplicate-job', TELLS_ITS_PROCESS);
    if (!edited.ok) throw new Error(edited.error);
    const prepared = playground.prepare({
      scenario: 'duplicate-job',
      variant: EXERCISE_VARIANT_ID,
      params: TOGETHER,
      ownCode: edited.ownCode,
    });
    if (!prepared.ok) throw new Error(prepared.error);
    const outcome = await prepared.run.start();
    await edited.done();
    expect(outcome).toMatchObject({ status: 'finished', verdict: 'pass', metrics: { emailsSent: 1 } });
    expect(eventsOf(prepared.run.events, 'run-started')[0]).toMatchObject({ variant: EXERCISE_VARIANT_ID });
    const notes = eventsOf(prepared.run.events, 'note').map((n) => n.text);
    // Where the kernel caps its threads (confinement.ts), libuv's pool is set to one thread too.
    const pool = (await exerciseConfinement(STORES)).description.noChildProcesses ? ',UV_THREADPOOL_SIZE' : '';
    expect(notes.filter((n) => n.startsWith('env '))).toEqual(
      Array(3).fill(`env RACELAB_DATABASE_URL,RACELAB_REDIS_URL${pool}; reads /etc/hostname: false`),
    );
  });

  it('is refused where the server runs no edited code, with the sentence the page shows', async () => {
    const service = new ExerciseService(playground, exercisePolicy('0.0.0.0', false));
    const edited = await service.editedRun('duplicate-job', TOKEN_LUA);
    expect(edited).toEqual({ ok: false, error: expect.stringContaining('--allow-exercises') as unknown });
  });

  it('is refused with the compiler’s message and line when it does not compile', async () => {
    const service = new ExerciseService(playground, exercisePolicy('127.0.0.1', false));
    const edited = await service.editedRun('duplicate-job', "import { exec } from 'node:child_process';\nexec('id');\nexport default 1;\n");
    expect(edited).toEqual({
      ok: false,
      error: expect.stringMatching(/^your code does not compile: line 1: 'node:child_process' may not be imported/) as unknown,
    });
  });
});
