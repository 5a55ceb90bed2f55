// A fault plan from a file (the CLI's --faults), or a schedule (--schedule): a JSON list of fault rules, as a page plans
// them, with the reason in words when the file cannot be read, is not JSON, or holds a rule
// the protocol would refuse. Whether each rule fits the run (its checkpoint, its target, its
// node) is the playground's to say, as for a page's plan.
import { readFile } from 'node:fs/promises';
import { parseFaultPlan, parseScheduleFile, type FaultRule, type ScheduleFile } from '@racelab/shared';

export async function readFaultPlan(file: string): Promise<{ ok: true; value: FaultRule[] } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, error: `could not read the fault plan ${file}: ${(error as Error).message}` };
  }
  return parseFaultPlan(text, `the fault plan ${file}`);
}

/** A schedule from a file (the CLI's --schedule), as the explorer wrote it, for this scenario and variant. */
export async function readScheduleFile(
  file: string,
  scenario: string,
  variant: string,
): Promise<{ ok: true; value: ScheduleFile } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, error: `could not read the schedule ${file}: ${(error as Error).message}` };
  }
  const parsed = parseScheduleFile(text);
  if (!parsed.ok) return { ok: false, error: `the schedule ${file} is ${parsed.error}` };
  const { schedule } = parsed;
  if (schedule.scenario !== scenario || schedule.variant !== variant) {
    return {
      ok: false,
      error: `the schedule ${file} is one of ${schedule.scenario} --variant ${schedule.variant}, not of ${scenario} --variant ${variant}`,
    };
  }
  return { ok: true, value: schedule };
}
