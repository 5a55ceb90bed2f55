// A schedule from a page's start-run (a link's `schedule=`): read with schedule.ts's parser,
// and played as the explorer played it: an explored run at EXPLORE_SPEED with the variant's
// own fault plan, on racelab's code. Anything else is refused in words; the page's
// connection carries on.
import { parseChoices } from '@racelab/shared';
import { EXPLORE_SPEED, StepScheduler } from './stepScheduler.js';

export type PageSchedule = { ok: true; scheduler: StepScheduler; speed: number } | { ok: false; error: string };

/** The scheduler a page's schedule text asks for, or why the run is refused. */
export function pageSchedule(text: string, given: { faults?: unknown; exercise?: unknown }): PageSchedule {
  if (given.exercise !== undefined) return { ok: false, error: "a schedule replays racelab's own variants, not edited code" };
  if (given.faults !== undefined) return { ok: false, error: "a schedule plays the variant's own fault plan: send no faults with it" };
  const parsed = parseChoices(text);
  if (!parsed.ok) return { ok: false, error: `bad schedule: ${parsed.error}` };
  return { ok: true, scheduler: new StepScheduler(parsed.choices), speed: EXPLORE_SPEED };
}
