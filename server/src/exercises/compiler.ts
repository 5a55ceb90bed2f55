// An edited variant, from TypeScript to a module a worker can load: a syntactic transpile
// (no type check of the whole program: a second at least, where this takes milliseconds),
// then every import it makes checked (importRules.ts) and pointed at the built module it
// names. The compiler is loaded on the first exercise and kept: most servers never load it.
import type TypeScript from 'typescript';
import type { ExerciseCompileError } from '@racelab/shared';
import { resolveImport, type ImportRules } from './importRules.js';

let loading: Promise<typeof TypeScript> | undefined;

/** The TypeScript compiler, loaded once per process on first use. */
export function typescript(): Promise<typeof TypeScript> {
  loading ??= import('typescript').then((m) => (m as { default?: typeof TypeScript }).default ?? m);
  return loading;
}

export type Compiled = { ok: true; code: string } | { ok: false; errors: ExerciseCompileError[] };

/** The most errors an answer lists: the first few tell the learner what to fix. */
const MAX_ERRORS = 5;

/** Compiles an edited variant's source to an ES module whose imports are absolute URLs; or says why not, with lines. */
export async function compileExercise(source: string, rules: ImportRules): Promise<Compiled> {
  const ts = await typescript();
  const lineOf = (text: string, position: number): number => text.slice(0, position).split('\n').length;
  const out = ts.transpileModule(source, {
    fileName: 'your-fix.ts',
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false, inlineSourceMap: false },
  });
  const syntax = (out.diagnostics ?? []).map((d) => ({
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    ...(d.start !== undefined ? { line: lineOf(source, d.start) } : {}),
  }));
  if (syntax.length > 0) return { ok: false, errors: syntax.slice(0, MAX_ERRORS) };

  // The imports that survive the transpile (type-only ones are gone), found in its output.
  const js = out.outputText;
  const errors: ExerciseCompileError[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  const imports = moduleSpecifiers(ts, js);
  for (const found of imports) {
    const line = sourceLine(source, found.text);
    if (found.text === undefined) {
      errors.push({ message: 'import() must name its module as a string in quotes', ...(line ? { line } : {}) });
      continue;
    }
    const target = resolveImport(found.text, rules);
    if (!target.ok) errors.push({ message: target.error, ...(line ? { line } : {}) });
    else edits.push({ start: found.start, end: found.end, text: JSON.stringify(target.url) });
  }
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
  let code = js;
  for (const edit of edits.sort((a, b) => b.start - a.start)) code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
  return { ok: true, code };
}

/** The builtin and package imports a source makes (its own file's: what an exercise of it may keep). */
export async function importsOf(source: string): Promise<string[]> {
  const ts = await typescript();
  const out = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return moduleSpecifiers(ts, out.outputText).flatMap((s) => (s.text === undefined ? [] : [s.text]));
}

interface Specifier {
  /** The module named; undefined for an import() of something other than a string. */
  text: string | undefined;
  /** Where its string literal (quotes included) sits in the module's text. */
  start: number;
  end: number;
}

/** Every module a module's text names: static imports, re-exports and import() calls. */
function moduleSpecifiers(ts: typeof TypeScript, js: string): Specifier[] {
  const file = ts.createSourceFile('your-fix.js', js, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const found: Specifier[] = [];
  const literal = (node: TypeScript.Node): void => {
    if (ts.isStringLiteralLike(node)) found.push({ text: node.text, start: node.getStart(file), end: node.getEnd() });
    else found.push({ text: undefined, start: node.getStart(file), end: node.getEnd() });
  };
  const visit = (node: TypeScript.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) literal(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      literal(node.arguments[0] ?? node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The line of the source that names this module, for an error that points at it. */
function sourceLine(source: string, spec: string | undefined): number | undefined {
  const lines = source.split('\n');
  const at =
    spec === undefined
      ? lines.findIndex((l) => /\bimport\s*\(/.test(l))
      : lines.findIndex((l) => l.includes(`'${spec}'`) || l.includes(`"${spec}"`) || l.includes(`\`${spec}\``));
  return at >= 0 ? at + 1 : undefined;
}
