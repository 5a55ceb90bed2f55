// Lists the longest functions and methods of the TypeScript files under the folders given
// (tests aside), longest first, in lines from the first line of the declaration to its
// closing brace. A function nested in another counts in both.
//   node tools/dist/functionLengths.js [--top 10] [--max 60] <folder or file> ...
// Exit 1 when --max is given and any function is longer.
import { parseArgs } from 'node:util';
import { measureFunctions } from './measureFunctions.js';

const USAGE = 'usage: node tools/dist/functionLengths.js [--top 10] [--max 60] <folder or file> ...';

let parsed: ReturnType<typeof parseArgs<{ options: { top: { type: 'string' }; max: { type: 'string' } }; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: { top: { type: 'string' }, max: { type: 'string' } }, allowPositionals: true });
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const top = Number(parsed.values.top ?? 10);
const max = parsed.values.max === undefined ? undefined : Number(parsed.values.max);
const targets = parsed.positionals;
if (targets.length === 0 || !Number.isInteger(top) || (max !== undefined && !Number.isInteger(max))) {
  console.error(USAGE);
  process.exit(2);
}
const all = measureFunctions(targets);
for (const f of all.slice(0, top)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
const over = max === undefined ? [] : all.filter((f) => f.lines > max);
if (max !== undefined) console.log(over.length === 0 ? `none longer than ${max} lines` : `${over.length} longer than ${max} lines`);
process.exitCode = over.length === 0 ? 0 : 1;
