// Measures the functions and methods of TypeScript files (tests aside), in lines from the first
// line of the declaration to its closing brace. A function nested in another counts in both.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
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

/** Every function of the TypeScript files under `targets` (folders or files, tests left out), longest first. */
export function measureFunctions(targets: string[]): FunctionLength[] {
  return targets
    .flatMap(sourceFiles)
    .flatMap(functionLengths)
    .sort((a, b) => b.lines - a.lines);
}
