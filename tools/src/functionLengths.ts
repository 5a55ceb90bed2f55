// Lists the longest functions and methods of the TypeScript files under the folders given
// (tests aside), longest first, in lines from the first line of the declaration to its
// closing brace. A function nested in another counts in both.
//   node tools/dist/functionLengths.js [--top 10] [--max 60] <folder or file> ...
// Exit 1 when --max is given and any function is longer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const USAGE = 'usage: node tools/dist/functionLengths.js [--top 10] [--max 60] <folder or file> ...';

interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The TypeScript source files under `target` (a folder or one file), tests left out. */
function sourceFiles(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(target, file))
    .sort();
}

/** A function's name as a reader finds it: `Class.method`, `name`, or what the arrow is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  const own = node.name?.getText(source) ?? (ts.isConstructorDeclaration(node) ? 'constructor' : undefined);
  const parent = node.parent;
  if (own && ts.isClassLike(parent)) return `${parent.name?.getText(source) ?? '(class)'}.${own}`;
  if (own) return own;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  return `(anonymous, line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
}

/** Every function of one file with its length in lines. */
function functionLengths(file: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      found.push({ file, name: nameOf(fn, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

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
const all = targets
  .flatMap(sourceFiles)
  .flatMap(functionLengths)
  .sort((a, b) => b.lines - a.lines);
for (const f of all.slice(0, top)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
const over = max === undefined ? [] : all.filter((f) => f.lines > max);
if (max !== undefined) console.log(over.length === 0 ? `none longer than ${max} lines` : `${over.length} longer than ${max} lines`);
process.exitCode = over.length === 0 ? 0 : 1;
