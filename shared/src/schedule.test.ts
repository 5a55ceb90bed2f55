import { describe, expect, it } from 'vitest';
import { formatChoices, parseChoices, scheduleQuery, StepAt, stepWords, type ScheduleChoice } from './schedule.js';

describe("a schedule's text", () => {
  const choices: ScheduleChoice[] = [
    { worker: 'worker-1' },
    { worker: 'worker-2', expire: 'lock:document' },
    { worker: 'worker-3', kill: true },
    { worker: 'worker-1', expire: 'odd,key%2C' },
  ];

  it('reads back what it wrote, keys with colons, commas and percents included', () => {
    const text = formatChoices(choices);
    expect(text).toBe('worker-1,worker-2:expire:lock:document,worker-3:kill,worker-1:expire:odd%2Ckey%252C');
    expect(parseChoices(text)).toEqual({ ok: true, choices });
  });

  it.each([
    ['', 'the schedule is empty'],
    ['worker-1,,worker-2', "decision 2 (''): a decision starts with a worker id such as worker-1"],
    ['worker-1:stall', "decision 1 ('worker-1:stall'): after the worker comes nothing, ':kill' or ':expire:<key>'"],
    ['worker-1:kill:now', "decision 1 ('worker-1:kill:now'): after the worker comes nothing, ':kill' or ':expire:<key>'"],
    ['worker-1:expire:', "decision 1 ('worker-1:expire:'): after the worker comes nothing, ':kill' or ':expire:<key>'"],
    ['<script>', "decision 1 ('<script>'): a decision starts with a worker id such as worker-1"],
  ])('refuses %j in words', (text, error) => {
    expect(parseChoices(text)).toEqual({ ok: false, error });
  });

  it('refuses a text past its length', () => {
    expect(parseChoices('worker-1,'.repeat(3000))).toMatchObject({ ok: false, error: expect.stringMatching(/at most 20000 characters/) });
  });
});

describe("a schedule's link", () => {
  it('names the scenario, the variant, every parameter and the decisions', () => {
    const query = scheduleQuery({
      scenario: 'fencing',
      variant: 'lease-only',
      params: { workMs: 300, offsetsMs: [0, 600] },
      choices: [{ worker: 'worker-1' }, { worker: 'worker-2', expire: 'lock:document' }],
    });
    expect(query).toBe(
      '?scenario=fencing&variant=lease-only&p.workMs=300&p.offsetsMs=0,600&schedule=worker-1,worker-2:expire:lock:document',
    );
    expect(parseChoices(query.split('&schedule=')[1]!)).toMatchObject({ ok: true });
  });
});

describe('a step in words', () => {
  it("tells a call of a lock's adapter by the call and the key, and takes it as a step a worker may send", () => {
    const step = { kind: 'lock', call: 'release', key: 'lock:nightly-report' } as const;
    expect(stepWords(step)).toBe('lock.release(lock:nightly-report)');
    expect(StepAt.safeParse(step).success).toBe(true);
    expect(StepAt.safeParse({ ...step, call: 'steal' }).success).toBe(false);
  });
});
