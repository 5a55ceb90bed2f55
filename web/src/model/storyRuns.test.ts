// The story of every variant's real run never contradicts its verdict or its metrics: it
// reads the same evidence (the writes and what the stores held, the run-finished counts).
import type { EventOf, RunEvent } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { LogBuilder } from './fixtures/build.js';
import { runs } from './fixtures/runs/index.js';
import { runSummary } from './runSummary.js';
import { deriveStory, type StoryLine } from './story.js';

const finishedOf = (events: RunEvent[]) => runSummary(events).finished as EventOf<'run-finished'>;
const writeOf = (events: RunEvent[], line: StoryLine) => events.find((e) => `write-${e.seq}` === line.id);

describe.each(Object.entries(runs))('the story of %s', (_id, events) => {
  const story = deriveStory(events);
  const finished = finishedOf(events);

  it('tells damage exactly when the verdict is FAIL, and ends with what the stores counted', () => {
    const damage = story.filter((l) => l.tone === 'damage').map((l) => l.text);
    // Under a PASS no damage at all; under a FAIL some.
    expect({ verdict: finished.verdict, damage: finished.verdict === 'pass' ? damage : damage.length > 0 }).toEqual({
      verdict: finished.verdict,
      damage: finished.verdict === 'pass' ? [] : true,
    });
    const counted = story.filter((l) => l.id.startsWith('verdict-'));
    const broken = finished.expectations.filter((e) => !e.held);
    expect(counted.map((l) => l.tone)).toEqual(finished.verdict === 'pass' ? ['safe'] : broken.map(() => 'damage'));
    expect(story.at(-1)!.id.startsWith('verdict-')).toBe(true);
  });

  it('tells every refused write as damage prevented, never as damage', () => {
    const unsafe = story.filter((l) => writeOf(events, l)?.type === 'write-rejected' && l.tone !== 'safe').map((l) => l.text);
    expect(unsafe).toEqual([]);
  });

  it('tells nothing after the run ended as seen', () => {
    const { endMs } = runSummary(events);
    for (const line of story) {
      for (const m of line.text.matchAll(/(?:expired|was deleted|wrote \S+) at (\d+) ms/g))
        expect(Number(m[1]), line.text).toBeLessThanOrEqual(endMs!);
      expect(line.atMs === Infinity || line.atMs <= endMs!).toBe(true);
    }
  });
});

describe('the story, read against the verdict', () => {
  const text = (events: RunEvent[]) => deriveStory(events).map((l) => `${l.tone}: ${l.text}`);

  it('lost-update atomic-update (PASS): admin-1’s write is not lost', () => {
    const t = text(runs['lost-update/atomic-update']!);
    expect(t.some((l) => l.includes('was lost'))).toBe(false);
    expect(t).toContain(
      "safe: admin-2 read stock = 10 before admin-1 wrote stock = 7, then wrote stock = 5; the stores' count came out right, so admin-1's write was not lost.",
    );
  });

  it('lost-update read-modify-write (FAIL): admin-1’s write is lost', () => {
    expect(text(runs['lost-update/read-modify-write']!)).toContain(
      "damage: admin-2 wrote stock = 8 from its read of 10, after admin-1 had written stock = 7: admin-1's write was lost.",
    );
  });

  it('lost-update optimistic-version (PASS): the refused write kept admin-1’s', () => {
    expect(text(runs['lost-update/optimistic-version']!)).toContain(
      "safe: The store refused admin-2's write of stock = 8, made from its read of 10 after admin-1 had written stock = 7: v1 is gone: another admin wrote first — admin-1's write was kept.",
    );
  });

  it('fence-check database-guard (PASS): refused writes are prevented damage, an early write is replaced', () => {
    const t = text(runs['fence-check/database-guard']!);
    expect(t.filter((l) => l.startsWith('damage'))).toEqual([]);
    expect(t).toContain(
      'safe: worker-1 wrote late-write with fence 1 after worker-2 wrote with fence 2; the row refused it — the stale write was stopped.',
    );
    expect(
      t.some((l) =>
        /^hazard: worker-1 wrote early-write at \d+ ms without a valid lease on lock:early-write; it landed, then worker-2's write with fence 2 replaced it\.$/.test(
          l,
        ),
      ),
    ).toBe(true);
  });

  it('failover plain-lock (FAIL): the older holder’s write lands over the newer one’s', () => {
    expect(
      text(runs['failover/plain-lock']!).some((l) =>
        /^damage: worker-1 wrote document after worker-2 had been granted the lock \(at \d+ ms\) and had written it/.test(l),
      ),
    ).toBe(true);
  });

  it('words a lease expiry after the run’s end as predicted, not seen', () => {
    const events = new LogBuilder()
      .at(0, null, {
        type: 'run-started',
        scenario: 'duplicate-job',
        variant: 'token-lua',
        correct: true,
        params: {},
        workers: ['worker-1'],
      })
      .at(5, 'worker-1', { type: 'lease-acquired', key: 'lock:job', ttlMs: 30000, token: 't1' })
      .at(10, 'worker-1', { type: 'process-killed', signal: 'SIGKILL' })
      .at(40, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' })
      .build();
    const t = deriveStory(events).map((l) => l.text);
    expect(t[0]).toBe(
      'worker-1 was killed (SIGKILL) at 10 ms holding lock:job; Redis would free it only when the lease expires at 30 s, after the run ended (predicted, not seen).',
    );
    expect(t.some((l) => l.includes('expired'))).toBe(false);
    // Within the run, it was seen.
    const seen = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 'duplicate-job', variant: 'x', correct: true, params: {}, workers: ['worker-1'] })
      .at(5, 'worker-1', { type: 'lease-acquired', key: 'lock:job', ttlMs: 20, token: 't1' })
      .at(10, 'worker-1', { type: 'process-killed', signal: 'SIGKILL' })
      .at(40, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' })
      .build();
    expect(deriveStory(seen)[0]!.text).toBe(
      'worker-1 was killed (SIGKILL) at 10 ms holding lock:job; Redis freed it only when the lease expired at 25 ms.',
    );
  });
});

// Each figure the story must agree with, checked on every run that counts it; every check
// applies to some run, so none can pass by applying to nothing.
const ends = (story: StoryLine[]) => story.filter((l) => l.id.startsWith('end-')).map((l) => l.text);
const writeLines = (events: RunEvent[], story: StoryLine[]) => story.filter((l) => writeOf(events, l));
const agreements: {
  metric: string;
  when?: (value: number | string) => boolean;
  check(events: RunEvent[], story: StoryLine[], value: number | string): void;
}[] = [
  {
    metric: 'staleWritesAccepted',
    check: (events, story, value) =>
      expect(writeLines(events, story).filter((l) => l.tone === 'damage' && writeOf(events, l)!.type === 'write-accepted')).toHaveLength(
        value as number,
      ),
  },
  {
    metric: 'staleWritesRejected',
    check: (events, story, value) =>
      expect(writeLines(events, story).filter((l) => writeOf(events, l)!.type === 'write-rejected')).toHaveLength(value as number),
  },
  {
    metric: 'maxConcurrentHolders',
    when: (v) => (v as number) <= 1,
    check: (_e, story) => expect(story.filter((l) => l.id.startsWith('overlap'))).toEqual([]),
  },
  {
    metric: 'maxConcurrentHolders',
    when: (v) => (v as number) >= 2,
    check: (_e, story) => expect(story.some((l) => l.id === 'one-holder')).toBe(false),
  },
  { metric: 'finalWriter', check: (_e, story, value) => expect(ends(story).some((t) => t.includes(`= ${value as string}`))).toBe(true) },
  {
    metric: 'finalStock',
    check: (_e, story, value) =>
      expect(ends(story)).toContain(`At the end, PostgreSQL held stock = ${value} (v${/\(v(\d+)\)/.exec(ends(story).join(' '))![1]}).`),
  },
  {
    metric: 'emailsSent',
    check: (_e, story, value) => expect(ends(story)).toContain(`At the end, PostgreSQL held emails = ${value} sent.`),
  },
  {
    metric: 'refreshCalls',
    check: (_e, story, value) => expect(ends(story)).toContain(`At the end: Token provider · refresh calls = ${value}.`),
  },
];

describe.each(agreements.map((a, i) => [`${a.metric}${a.when ? ` #${i}` : ''}`, a] as const))(
  'the story agrees with %s',
  (_name, agreement) => {
    const applies = Object.entries(runs).filter(([, events]) => {
      const value = finishedOf(events).metrics[agreement.metric];
      return value !== undefined && (agreement.when?.(value) ?? true);
    });
    it('on some run at least', () => expect(applies.length).toBeGreaterThan(0));
    it.each(applies)('of %s', (_id, events) => agreement.check(events, deriveStory(events), finishedOf(events).metrics[agreement.metric]!));
  },
);
