// Options of the npm scripts that take them (stability, fuzz; the CLI's, which take a
// scenario as well, in cliArgs.ts, which splits --param here too): `--help` prints the usage
// and exits 0; a mistyped option or a missing value prints the reason and the usage and
// exits 2, instead of a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FORBIDDEN_KEYS, forbiddenKey } from '@racelab/shared';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: false }>>['values'];

export function readOptions<T extends Options>(usage: string, options: T, args = process.argv.slice(2)): Values<T> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options, allowPositionals: false }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

/** A `--param` value, "name=value", split; throws saying what it got otherwise. */
export function splitParam(pair: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new Error(`--param takes name=value, got '${pair}'`);
  const name = pair.slice(0, eq);
  // Refused, not dropped: assigned to an object, '__proto__' would vanish without a word.
  if (FORBIDDEN_KEYS.includes(name)) throw new Error(`--param: ${forbiddenKey(name)}`);
  return [name, pair.slice(eq + 1)];
}

/** An integer option within bounds, or exit 2 saying which option and what it got. */
export function intOption(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer from ${min} to ${max}, got ${value}`);
    process.exit(2);
  }
  return n;
}
