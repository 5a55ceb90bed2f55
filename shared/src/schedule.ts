// A schedule: the order in which the server lets a run's workers past their scheduling points
// (each store command, checkpoint and pause of a worker), plus faults at those points. The
// explorer writes the smallest failing one it finds to a file; `npm run scenario -- …
// --schedule file.json` and the page play it again.
import { z } from 'zod';
import { Params, formatParam } from './catalog.js';

/** What a worker is about to do when it stops at a scheduling point. */
export const StepAt = z.discriminatedUnion('kind', [
  /** A Redis command, its name and the keys it names (without the run's prefix). */
  z.object({ kind: z.literal('redis'), command: z.string().max(64), keys: z.array(z.string().max(512)).max(64) }),
  /** A PostgreSQL statement, its first words. */
  z.object({ kind: z.literal('postgres'), sql: z.string().max(200) }),
  /** A checkpoint of the variant. */
  z.object({ kind: z.literal('checkpoint'), name: z.string().max(100) }),
  /** A pause the code asked for (a sleep, a stall, its think time): letting another worker go here is free. */
  z.object({ kind: z.literal('yield'), why: z.string().max(100) }),
  /**
   * A call of a lock module's adapter (locks/lockAdapter.ts), before it sends anything: `key`
   * is where the lock lives in Redis (without the run's prefix), or the scenario's name for
   * it when the lock is not in Redis.
   */
  z.object({ kind: z.literal('lock'), call: z.enum(['acquire', 'release', 'extend']), key: z.string().max(512) }),
]);
export type StepAt = z.infer<typeof StepAt>;

/**
 * One decision of a schedule: which waiting worker goes next, and a fault played first: a
 * key of the run expires on Redis's clock (a lease running out while its holder waits), or
 * the worker is killed (SIGKILL) where it waits instead of going on.
 */
export const ScheduleChoice = z.object({
  worker: z.string().max(64),
  expire: z.string().max(512).optional(),
  kill: z.literal(true).optional(),
});
export type ScheduleChoice = z.infer<typeof ScheduleChoice>;

/** A schedule file: what it plays, its decisions in order, and what it gave when it was found. */
export const ScheduleFile = z.object({
  kind: z.literal('racelab-schedule'),
  version: z.literal(1),
  scenario: z.string().max(100),
  variant: z.string().max(100),
  params: Params,
  choices: z.array(ScheduleChoice).max(10_000),
  /** The run this schedule gave when the explorer found it, in words: one line a step. */
  story: z.array(z.string().max(2000)).max(10_000).optional(),
  /** Its verdict's lines then, e.g. "Stale writes accepted: 1 — should be 0". */
  verdict: z.array(z.string().max(2000)).max(100).optional(),
});
export type ScheduleFile = z.infer<typeof ScheduleFile>;

/** A schedule file's text, or why it is not one. */
export function parseScheduleFile(text: string): { ok: true; schedule: ScheduleFile } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const parsed = ScheduleFile.safeParse(json);
  if (parsed.success) return { ok: true, schedule: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, error: `not a racelab schedule: ${issue.path.join('.') || '(top)'}: ${issue.message}` };
}

/** Longest schedule a link or a page's start-run may carry, as text. */
export const MAX_SCHEDULE_TEXT = 20_000;

const WORKER_ID = /^[A-Za-z0-9_-]{1,64}$/;
// In a key, the two characters the text gives a meaning: "," ends a choice, "%" escapes.
const escapeKey = (key: string): string => key.replace(/%/g, '%25').replace(/,/g, '%2C');
const unescapeKey = (key: string): string => key.replace(/%2C/gi, ',').replace(/%25/g, '%');

/**
 * A schedule's decisions as the text a link carries, one choice after another, comma-separated:
 * "worker-1", "worker-3:kill" (killed where it waits), "worker-2:expire:lock:document" (that
 * key runs out on Redis's clock first, then worker-2 goes).
 */
export function formatChoices(choices: readonly ScheduleChoice[]): string {
  return choices
    .map((c) => (c.kill ? `${c.worker}:kill` : c.expire !== undefined ? `${c.worker}:expire:${escapeKey(c.expire)}` : c.worker))
    .join(',');
}

/** A schedule's decisions from the text of a link (formatChoices), or why it is not one. */
export function parseChoices(text: string): { ok: true; choices: ScheduleChoice[] } | { ok: false; error: string } {
  if (text.length > MAX_SCHEDULE_TEXT)
    return { ok: false, error: `a schedule is at most ${MAX_SCHEDULE_TEXT} characters; this one has ${text.length}` };
  if (text.trim() === '') return { ok: false, error: 'the schedule is empty' };
  const choices: ScheduleChoice[] = [];
  for (const [i, part] of text.split(',').entries()) {
    const [worker = '', what, ...rest] = part.split(':');
    const where = `decision ${i + 1} ('${part.slice(0, 80)}')`;
    if (!WORKER_ID.test(worker)) return { ok: false, error: `${where}: a decision starts with a worker id such as worker-1` };
    if (what === undefined) choices.push({ worker });
    else if (what === 'kill' && rest.length === 0) choices.push({ worker, kill: true });
    else if (what === 'expire' && rest.join(':') !== '') choices.push({ worker, expire: unescapeKey(rest.join(':')) });
    else return { ok: false, error: `${where}: after the worker comes nothing, ':kill' or ':expire:<key>'` };
  }
  const parsed = z.array(ScheduleChoice).max(10_000).safeParse(choices);
  if (!parsed.success) return { ok: false, error: `not a schedule: ${parsed.error.issues[0]!.message}` };
  return { ok: true, choices: parsed.data };
}

/**
 * The page's query that replays a schedule live: its scenario, variant, parameters and
 * decisions ("?scenario=…&variant=…&p.workers=3&schedule=worker-1,…"); Run plays it.
 */
export function scheduleQuery(file: Pick<ScheduleFile, 'scenario' | 'variant' | 'params' | 'choices'>): string {
  const params = Object.entries(file.params).map(([name, value]) => [`p.${name}`, formatParam(value)]);
  const fields = [['scenario', file.scenario], ['variant', file.variant], ...params, ['schedule', formatChoices(file.choices)]];
  // Colons and commas read as themselves in a query: left plain, the link stays legible.
  const encode = (text: string): string => encodeURIComponent(text).replace(/%3A/gi, ':').replace(/%2C/gi, ',');
  return `?${fields.map(([name, value]) => `${encode(name!)}=${encode(value!)}`).join('&')}`;
}

/** A step in words: "SET lock", "UPDATE documents …", "checkpoint after-grant", "pause (sleep)", "lock.release(lock)". */
export function stepWords(step: StepAt): string {
  switch (step.kind) {
    case 'redis':
      return [step.command, ...step.keys].join(' ');
    case 'postgres':
      return step.sql;
    case 'checkpoint':
      return `checkpoint ${step.name}`;
    case 'yield':
      return `pause (${step.why})`;
    case 'lock':
      return `lock.${step.call}(${step.key})`;
  }
}
