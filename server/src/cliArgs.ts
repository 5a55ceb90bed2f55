// The CLI's command line, read by node:util parseArgs as the tools' scripts read theirs: a
// mistyped option, a missing value or a second scenario throws a UsageError with the reason,
// which the CLI prints with the usage and answers with exit 2.
import { parseArgs } from 'node:util';
import { splitParam } from './commandLine.js';

export const USAGE = `usage: npm run scenario -- <scenario> --variant <id> [--param name=value ...] [--faults plan.json] [--json]
       npm run scenario -- <scenario> --variant <id> --schedule file.schedule.json   (a schedule npm run explore found)
       npm run scenario -- duplicate-job --variant your-lock --lock my-lock.mjs [--schedule file]   (a lock module of your own)
       npm run scenario -- --list
  --faults: a JSON file holding a list of fault rules, as a page plans them, e.g.
            [{"checkpoint": "working", "target": "first", "action": "stall", "ms": 3000}]`;

/** What the command line asks for; nothing checked against the catalog yet. */
export interface CliArgs {
  scenario?: string;
  variant?: string;
  params: Record<string, string>;
  /** The file of a fault plan (--faults), read by faultPlanFile.ts. */
  faults?: string;
  /** The file of a schedule (--schedule), as the explorer writes it. */
  schedule?: string;
  /** A lock module of your own (--lock), run as the variant 'your-lock' (locks/lockModules.ts). */
  lock?: string;
  json: boolean;
  list: boolean;
  help: boolean;
}

/** Bad input on the command line: exit 2, with the reason and the usage. */
export class UsageError extends Error {}

const OPTIONS = {
  variant: { type: 'string' },
  param: { type: 'string', multiple: true },
  faults: { type: 'string' },
  schedule: { type: 'string' },
  lock: { type: 'string' },
  json: { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The CLI's arguments (without node and the script); throws a UsageError on bad input. */
export function readCliArgs(argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}': one scenario per run`);
  const params: Record<string, string> = {};
  for (const pair of values.param ?? []) {
    try {
      const [name, value] = splitParam(pair);
      params[name] = value;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return {
    ...(positionals[0] !== undefined ? { scenario: positionals[0] } : {}),
    ...(values.variant !== undefined ? { variant: values.variant } : {}),
    params,
    ...(values.faults !== undefined ? { faults: values.faults } : {}),
    ...(values.schedule !== undefined ? { schedule: values.schedule } : {}),
    ...(values.lock !== undefined ? { lock: values.lock } : {}),
    json: values.json,
    list: values.list,
    help: values.help,
  };
}
